/// \file
/// Where mlgo-ra keeps what it can compute again: compile's middle ends, replay's
/// exact results.
#pragma once

#include <string>

namespace mlgo {

/// $XDG_CACHE_HOME/mlgo-ra (or ~/.cache/mlgo-ra), unless the user names another
/// directory.
std::string defaultCacheDirectory();

} // namespace mlgo
