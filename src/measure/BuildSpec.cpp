#include "Measure.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"

namespace mlgo {

BuildSpec parseBuildSpec(const std::string &Text) {
  auto [Name, Path] = llvm::StringRef(Text).split('=');
  // NAME=PATH where NAME is a plain name; a path with '=' in it stays a path.
  if (!Path.empty() && !Name.empty() && !Name.contains('/'))
    return {Name.str(), Path.str()};
  llvm::StringRef Trimmed = llvm::StringRef(Text).rtrim('/');
  return {llvm::sys::path::filename(Trimmed).str(), Text};
}

} // namespace mlgo
