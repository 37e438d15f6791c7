/// \file
/// Timing calibrate's loops: this thread's CPU seconds, the fastest of several runs.
#pragma once

#include <cstdint>
#include <ctime>

namespace mlgo {

inline double threadSeconds() {
  timespec Now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &Now);
  return double(Now.tv_sec) + double(Now.tv_nsec) * 1e-9;
}

/// The fastest of \p Runs runs of \p Loop(Iterations): the others met interruptions.
template <typename Loop> double fastestSeconds(uint64_t Iterations, unsigned Runs, Loop Run) {
  double Best = 1e30;
  for (unsigned R = 0; R < Runs; ++R) {
    double Began = threadSeconds();
    Run(Iterations);
    double Took = threadSeconds() - Began;
    Best = Took < Best ? Took : Best;
  }
  return Best;
}

} // namespace mlgo
