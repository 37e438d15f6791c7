/// \file
/// Timing calibrate's loops: this thread's CPU seconds, each loop's fastest run, the
/// loops run in turn.
#pragma once

#include <cstdint>
#include <ctime>
#include <vector>

namespace mlgo {

inline double threadSeconds() {
  timespec Now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &Now);
  return double(Now.tv_sec) + double(Now.tv_nsec) * 1e-9;
}

/// A loop of calibrate's: runs its body the number of times it is given.
using LoopBody = void (*)(uint64_t);

/// Loops timed in rounds: a round runs each loop once, and each loop keeps its fastest
/// round (the others met interruptions). Taking turns spreads every loop's runs over the
/// whole measurement, so that a slow spell on a shared host (a neighbour on the core, a
/// change of clock) costs each loop a round or two, not one loop all of its runs, and the
/// clock loop's fastest run is as near the others' in time as theirs to each other.
class LoopTimer {
public:
  /// Adds \p Body, run \p Iterations times a round; returns its index.
  size_t add(LoopBody Body, uint64_t Iterations) {
    Loops.push_back({Body, Iterations, 1e30});
    return Loops.size() - 1;
  }

  /// Runs \p Rounds rounds.
  void run(unsigned Rounds) {
    for (unsigned R = 0; R < Rounds; ++R)
      for (Loop &L : Loops) {
        double Began = threadSeconds();
        L.Body(L.Iterations);
        double Took = threadSeconds() - Began;
        L.Fastest = Took < L.Fastest ? Took : L.Fastest;
      }
  }

  /// Loop \p Index's fastest round, in CPU seconds.
  double fastest(size_t Index) const { return Loops[Index].Fastest; }

private:
  struct Loop {
    LoopBody Body;
    uint64_t Iterations;
    double Fastest;
  };
  std::vector<Loop> Loops;
};

} // namespace mlgo
