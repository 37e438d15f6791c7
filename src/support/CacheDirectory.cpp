/// \file
/// The default cache directory.
#include "CacheDirectory.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"
#include <cstdlib>

namespace mlgo {

std::string defaultCacheDirectory() {
  if (const char *Xdg = std::getenv("XDG_CACHE_HOME"); Xdg && *Xdg)
    return std::string(Xdg) + "/mlgo-ra";
  llvm::SmallString<128> Home;
  if (llvm::sys::path::home_directory(Home))
    return std::string(Home) + "/.cache/mlgo-ra";
  return ".mlgo-ra-cache";
}

} // namespace mlgo
