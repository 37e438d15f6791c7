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

/// \p Word quoted for a POSIX shell: single quotes, each ' written as '\''; a word of
/// only safe characters (letters, digits, and -_./=:,+@%) as it is. Every name mlgo-ra
/// writes into text for a shell (a README's commands) goes through this, so that a
/// path holding ' or $(...) stays a word, not code.
std::string quoteShellWord(llvm::StringRef Word);

} // namespace mlgo
