/// \file
/// A directory walk that ends and counts each file once.
#include "DirectoryWalk.h"
#include "Error.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FileSystem.h"
#include <algorithm>

namespace mlgo {

llvm::Expected<std::vector<std::string>>
listFilesBelow(llvm::StringRef Dir, llvm::function_ref<bool(llvm::StringRef)> Keep) {
  namespace fs = llvm::sys::fs;
  std::vector<std::pair<std::string, fs::UniqueID>> Found;
  std::error_code EC;
  for (fs::recursive_directory_iterator It(Dir, EC, /*follow_symlinks=*/false), End;
       It != End && !EC; It.increment(EC)) {
    fs::file_type Type = It->type();
    if (Type != fs::file_type::regular_file && Type != fs::file_type::symlink_file)
      continue;
    if (!Keep(It->path()))
      continue;
    // Follows a file symlink; a dangling one or one to a directory is skipped.
    fs::file_status Status;
    if (fs::status(It->path(), Status, /*follow=*/true) ||
        Status.type() != fs::file_type::regular_file)
      continue;
    Found.emplace_back(It->path(), Status.getUniqueID());
  }
  if (EC)
    return inputError(Dir, "cannot list directory: {}", EC.message());
  std::sort(Found.begin(), Found.end(),
            [](const auto &A, const auto &B) { return A.first < B.first; });
  std::vector<std::string> Paths;
  llvm::DenseSet<fs::UniqueID> Seen;
  for (auto &[Path, ID] : Found)
    if (Seen.insert(ID).second)
      Paths.push_back(std::move(Path));
  return Paths;
}

} // namespace mlgo
