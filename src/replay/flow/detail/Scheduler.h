/// \file
/// One of the flow engine's schedulers: when its waiting instructions issue.
#pragma once

#include "replay/flow/FlowSimulator.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace mlgo {

/// The instructions waiting in one scheduler: how many leave it (issue) in each cycle
/// of a window from the dispatch cycle on.
class FlowSimulator::Scheduler {
public:
  static constexpr uint64_t Window = 1 << 16;
  Scheduler() : Leaving(Window) {}

  /// Instructions that issue by \p Cycle have left.
  void advanceTo(uint64_t Cycle) {
    if (Cycle <= Through)
      return;
    if (Cycle - Through >= Window) {
      std::fill(Leaving.begin(), Leaving.end(), 0);
      Waiting = 0;
    } else {
      for (uint64_t C = Through + 1; C <= Cycle && Waiting; ++C) {
        Waiting -= Leaving[C % Window];
        Leaving[C % Window] = 0;
      }
    }
    Through = Cycle;
  }
  /// The next cycle after the last advance in which an instruction leaves.
  uint64_t nextLeaving() const {
    uint64_t C = Through + 1;
    while (!Leaving[C % Window])
      ++C;
    return C;
  }
  /// An instruction dispatched in \p Dispatched waits until \p Issue.
  void add(uint64_t Dispatched, uint64_t Issue) {
    Issue = std::min(Issue, Dispatched + Window / 2); // within the window from Through
    if (Issue <= Through)
      return;
    ++Leaving[Issue % Window];
    ++Waiting;
  }
  /// Instructions dispatched and not known to have issued: at least those waiting.
  unsigned waiting() const { return Waiting; }
  /// Whether the window must advance before \p Cycle can be booked in it.
  bool lagsBehind(uint64_t Cycle) const { return Cycle - Through >= Window / 2; }

private:
  std::vector<uint16_t> Leaving; ///< at most a scheduler's size each
  uint64_t Through = 0;
  unsigned Waiting = 0;
};

} // namespace mlgo
