/// \file
/// Paths taken from untrusted inputs (compile commands, corpus descriptions) must stay
/// inside the directory they are written to.
#pragma once

#include "llvm/ADT/StringRef.h"
#include <string>

namespace mlgo {

/// True if \p Path is relative, non-empty and has no ".." component.
bool isContainedRelativePath(llvm::StringRef Path);

/// A relative path for \p Path that cannot leave an output directory: an absolute path
/// under \p Base becomes relative to it; any other absolute path loses its root; "."
/// and ".." components are resolved and any ".." left at the front is dropped.
std::string containedRelativePath(llvm::StringRef Path, llvm::StringRef Base);

/// \p Path itself if absolute or \p Base is empty, else Base/Path.
std::string resolvePath(llvm::StringRef Base, llvm::StringRef Path);

} // namespace mlgo
