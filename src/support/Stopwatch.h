/// \file
/// Wall seconds since a point of the steady clock: how long a step, a stage or a run
/// has taken so far.
#pragma once

#include <chrono>

namespace mlgo {

inline double secondsSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
}

} // namespace mlgo
