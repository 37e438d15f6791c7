/// \file
/// Listing the files below a directory that may come from anywhere: directory symlinks
/// are not followed (a link to "." or ".." would make the walk endless, a link to a
/// sibling would count its files twice), and a file reached by several names (a
/// symlink, a hard link) is listed once.
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace mlgo {

/// The paths (Dir/...) of the regular files below \p Dir, or symlinks to them, whose
/// path \p Keep accepts, sorted; of several names of one file, the first in that order.
llvm::Expected<std::vector<std::string>>
listFilesBelow(llvm::StringRef Dir, llvm::function_ref<bool(llvm::StringRef)> Keep);

} // namespace mlgo
