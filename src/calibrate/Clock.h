/// \file
/// This host's clock, timed by this thread's CPU seconds over a chain of multiplies
/// (3 cycles each on every x86-64 core of the last decade): a virtual machine often has
/// no cycle counter. calibrate turns its loops' seconds into cycles with it, and
/// measure a run's seconds (the cycles a native run takes: replay's --native-cycles).
#pragma once

#include "CpuSeconds.h"

#include <cstdint>
#include <optional>

namespace mlgo {

/// A chain of two dependent 64-bit multiplies, MultiplyChainCycles an iteration.
/// Null on a host that is not x86-64.
LoopBody multiplyChain();
inline constexpr unsigned MultiplyChainCycles = 6;

/// The clock in GHz of a run of the chain of \p Iterations iterations that took
/// \p Seconds of CPU time.
inline double chainClockGHz(uint64_t Iterations, double Seconds) {
  return double(Iterations) * MultiplyChainCycles / Seconds * 1e-9;
}

/// The clock in GHz that one run of the chain of \p Iterations iterations shows; none
/// on a host that is not x86-64, or where the run took no measurable CPU time.
std::optional<double> timeClockGHz(uint64_t Iterations);

} // namespace mlgo
