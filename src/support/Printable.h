/// \file
/// Text from inputs (function names from a trace or a binary, module paths) printed on
/// one line: a newline in a name must not start a forged "mlgo-ra: error:" line, nor
/// an escape sequence drive the terminal.
#pragma once

#include "llvm/ADT/StringRef.h"
#include <string>

namespace mlgo {

/// \p Text with control characters escaped: \n, \r and \t as such, every other C0 or C1
/// control character, DEL and each byte that is not part of valid UTF-8 as \xNN.
/// Printable text, UTF-8 included, is kept; applying it twice changes nothing more.
std::string printable(llvm::StringRef Text);

} // namespace mlgo
