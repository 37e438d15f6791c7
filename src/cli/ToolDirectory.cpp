/// \file
/// The installed layout is relative (bin/mlgo-ra, libexec/mlgo-ra/), so a prefix can
/// be moved or copied whole; the build tree's path is compiled in and used only by the
/// binary that still sits in that build tree.
#include "ToolDirectory.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace mlgo {

std::string mlgotraceDirectory() {
  std::string Exe =
      llvm::sys::fs::getMainExecutable(nullptr, reinterpret_cast<void *>(&mlgotraceDirectory));
  if (Exe.empty())
    return MLGO_RA_VALGRIND_LIB_DIR;
  llvm::StringRef ExeDir = llvm::sys::path::parent_path(Exe);
  llvm::SmallString<256> Installed(ExeDir);
  llvm::sys::path::append(Installed, MLGO_RA_TOOL_DIR_FROM_BIN);
  llvm::sys::path::remove_dots(Installed, /*remove_dot_dot=*/true);
  if (llvm::sys::fs::is_directory(Installed))
    return std::string(Installed);
  bool InBuildTree = false;
  if (llvm::sys::fs::equivalent(ExeDir, MLGO_RA_BUILD_BIN_DIR, InBuildTree) ||
      !InBuildTree || llvm::StringRef(MLGO_RA_VALGRIND_LIB_DIR).empty())
    return std::string(Installed);
  return MLGO_RA_VALGRIND_LIB_DIR;
}

} // namespace mlgo
