/// \file
/// The flow engine's processor resource units, busy or free by cycle.
#pragma once

#include "replay/flow/FlowSimulator.h"

#include "llvm/Support/Compiler.h"
#include <algorithm>
#include <cstdint>
#include <vector>

namespace mlgo {

/// Which units of the processor resources ("lanes") are busy in which cycles: a mask
/// of lanes per cycle over a window of cycles from the dispatch cycle on, reused as
/// dispatch moves ahead.
class FlowSimulator::Lanes {
public:
  static constexpr uint64_t Window = 1 << 16;

  Lanes() : Busy(Window) {}

  /// Of \p Wanted, the lanes free in each of \p Cycles cycles from \p From.
  uint64_t freeOf(uint64_t Wanted, uint64_t From, unsigned Cycles) const {
    uint64_t Free = Wanted & ~busy(From);
    if (LLVM_LIKELY(Cycles == 1))
      return Free;
    for (unsigned C = 1; C < Cycles && Free; ++C)
      Free &= ~busy(From + C);
    return Free;
  }
  void book(uint64_t Taken, uint64_t From, unsigned Cycles) {
    Busy[From & (Window - 1)] |= Taken;
    for (uint64_t C = From + 1; LLVM_UNLIKELY(C < From + Cycles); ++C)
      Busy[C & (Window - 1)] |= Taken;
  }
  /// Cycles before \p Cycle will not be booked any more: their masks can serve later
  /// cycles. They are cleared a quarter of the window at a time (bookings reach at most
  /// MaxSearch + MaxBooking cycles ahead, as FlowSimulator.cpp sets them, well within
  /// the rest).
  void advanceTo(uint64_t Cycle) {
    if (Cycle < Cleared + Window / 4)
      return;
    if (Cycle - Cleared >= Window)
      std::fill(Busy.begin(), Busy.end(), 0);
    else
      for (uint64_t C = Cleared; C < Cycle; ++C)
        Busy[C & (Window - 1)] = 0;
    Cleared = Cycle;
  }
  /// Bookings must end before this cycle.
  uint64_t limit() const { return Cleared + Window; }

private:
  uint64_t busy(uint64_t Cycle) const { return Busy[Cycle & (Window - 1)]; }

  std::vector<uint64_t> Busy; ///< by cycle modulo the window
  uint64_t Cleared = 0;       ///< the first cycle of the window
};

} // namespace mlgo
