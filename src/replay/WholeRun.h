/// \file
/// The speedup of a whole run, from the engine's cycles and the native run's. The flow
/// engine times the code it replays as if every load hit L1 and every fetch found its
/// code; a native run also waits for memory and for the front end. So the engine's
/// cycles are a share of the run's (on a Zen 5, 0.23 of brotli's, 0.96 of Lua's), and a
/// variant's change in cycles weighs more in the engine's than in the run's. Given the
/// cycles a native run of the baseline takes (measure's baseline_cycles), the cycles the
/// engine does not model are taken to be the same for every variant:
///   run speedup = (B + U) / (C + U) - 1,  U = max(0, native - B),
/// B and C the baseline's and the candidate's predicted cycles. With U = 0 (the engine
/// predicts the whole run, or more) it is the engine's own speedup, B / C - 1.
#pragma once

#include <algorithm>

namespace mlgo {

struct WholeRun {
  double NativeCycles = 0; ///< of the baseline's run, natively (positive)

  /// The cycles the engine does not model, of a baseline predicted at \p Baseline.
  double unmodeled(double Baseline) const { return std::max(0.0, NativeCycles - Baseline); }
  /// The share of the run's cycles the engine models (above 1 where it predicts more).
  double modeledShare(double Baseline) const {
    return NativeCycles > 0 ? Baseline / NativeCycles : 0;
  }
  /// The run's speedup, of a candidate predicted at \p Candidate cycles.
  double speedup(double Baseline, double Candidate) const {
    double U = unmodeled(Baseline);
    return Candidate + U > 0 ? (Baseline + U) / (Candidate + U) - 1 : 0;
  }
};

} // namespace mlgo
