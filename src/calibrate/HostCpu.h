/// \file
/// The host's CPU as /proc/cpuinfo names it, for people reading a profile.
#pragma once

#include <string>

namespace mlgo {

/// "VENDOR family F model M" of the first processor, or "unknown".
std::string hostCpuName();

} // namespace mlgo
