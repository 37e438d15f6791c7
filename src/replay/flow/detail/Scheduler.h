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
  /// Of \p Size entries (~0u: never full).
  explicit Scheduler(unsigned Size) : Leaving(Window), Size(Size) {}

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
    // Without a branch: one that issued by Through has left already.
    bool Waits = Issue > Through;
    Leaving[Issue % Window] += Waits;
    Waiting += Waits;
  }
  /// Whether all entries may be taken, or the window must advance before \p Cycle can
  /// be booked in it: what has left by \p Cycle must be counted out first.
  bool mayBeFull(uint64_t Cycle) const {
    return int(Waiting >= Size) | int(Cycle - Through >= Window / 2);
  }
  /// Whether all entries are taken, after an advance.
  bool full() const { return Waiting >= Size; }

private:
  std::vector<uint16_t> Leaving; ///< at most a scheduler's size each
  uint64_t Through = 0;
  /// Instructions dispatched and not known to have issued: at least those waiting.
  unsigned Waiting = 0;
  const unsigned Size;
};

} // namespace mlgo
