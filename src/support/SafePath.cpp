/// \file
/// Confining untrusted relative paths to an output directory.
#include "SafePath.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

namespace mlgo {

bool isContainedRelativePath(llvm::StringRef Path) {
  if (Path.empty() || llvm::sys::path::is_absolute(Path))
    return false;
  for (llvm::StringRef Component : llvm::make_range(llvm::sys::path::begin(Path),
                                                    llvm::sys::path::end(Path)))
    if (Component == "..")
      return false;
  return true;
}

std::string containedRelativePath(llvm::StringRef Path, llvm::StringRef Base) {
  llvm::SmallString<256> Result(Path);
  llvm::sys::path::remove_dots(Result, /*remove_dot_dot=*/true);
  llvm::SmallString<256> Prefix(Base);
  llvm::sys::path::remove_dots(Prefix, /*remove_dot_dot=*/true);
  if (llvm::sys::path::is_absolute(Result) && !Prefix.empty()) {
    std::string Dir = std::string(Prefix) + "/";
    if (llvm::StringRef(Result).starts_with(Dir))
      Result = llvm::StringRef(Result).drop_front(Dir.size());
  }
  llvm::SmallString<256> Relative;
  for (llvm::StringRef Component : llvm::make_range(llvm::sys::path::begin(Result),
                                                    llvm::sys::path::end(Result))) {
    if (Component == ".." || Component == "." ||
        Component == llvm::sys::path::root_name(Result) ||
        llvm::sys::path::is_separator(Component.front()))
      continue;
    llvm::sys::path::append(Relative, Component);
  }
  return std::string(Relative);
}

std::string resolvePath(llvm::StringRef Base, llvm::StringRef Path) {
  if (llvm::sys::path::is_absolute(Path) || Base.empty())
    return Path.str();
  llvm::SmallString<256> Joined(Base);
  llvm::sys::path::append(Joined, Path);
  return std::string(Joined);
}

} // namespace mlgo
