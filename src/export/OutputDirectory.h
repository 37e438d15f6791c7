/// \file
/// A directory of generated files that appears whole or not at all: it is written
/// beside its final place and renamed into it.
#pragma once

#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace mlgo {

struct GeneratedFile {
  std::string Path; ///< relative to the output directory, '/'-separated
  std::string Contents;
};

/// \p Dir without trailing slashes ("out/" is "out").
std::string directoryPath(llvm::StringRef Dir);

/// Writes \p Files into a fresh directory and renames it to \p Dir. An existing \p Dir
/// is replaced only if it holds nothing but names \p Files would write and \p Derived
/// (files users make from an earlier export, stale once it is replaced), so a mistyped
/// -o never deletes someone's directory. Every failure is an InputError about \p Dir.
llvm::Error writeDirectoryAtomically(llvm::StringRef Dir,
                                     const std::vector<GeneratedFile> &Files,
                                     const std::vector<std::string> &Derived);

} // namespace mlgo
