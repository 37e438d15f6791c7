/// \file
/// A program's link command, as a build system prints it (`ninja -t commands TARGET |
/// tail -1`, or one line of make's output): one compiler-driver invocation whose
/// objects are relative to a build's directory. measure links each build with it, with
/// other objects in place of the build's own (paired mode) or another output.
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace mlgo {

struct LinkCommand {
  std::vector<std::string> Words;
  std::vector<size_t> Objects; ///< indices of the *.o and *.a words, in order
  size_t Output = 0;           ///< index of the word after -o

  /// The command with \p Objects in place of its objects (at the first one's place)
  /// and \p Output as its -o.
  std::vector<std::string> with(const std::vector<std::string> &Objects,
                                const std::string &Output) const;
  std::vector<std::string> objects() const;
};

/// Splits \p Text by the shell's quoting rules; ninja's ": && " ... " && :" wrapper is
/// dropped. An error when it is more than one command or names no objects or no -o.
llvm::Expected<LinkCommand> parseLinkCommand(llvm::StringRef Text);

} // namespace mlgo
