/// \file
/// Splitting a command line written as one string (compile_commands.json "command",
/// linker response files, --global-command-override) into words, with GNU/POSIX shell
/// quoting rules.
#pragma once

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace mlgo {

std::vector<std::string> splitShellWords(llvm::StringRef Text);

} // namespace mlgo
