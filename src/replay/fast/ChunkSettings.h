/// \file
/// Exact replay in chunks: a long trace cut into chunks of instructions that are
/// simulated on several threads, each chunk's cores warmed up on the instructions before
/// it. Where the cuts fall depends on the trace alone, never on the number of threads,
/// so the cycles are the same with any -j.
#pragma once

#include "support/Error.h"

#include <cstdint>

namespace mlgo {

struct ChunkSettings {
  /// Instructions of the trace (all threads) per chunk, at least: a trace of N of them
  /// is cut into N / Instructions chunks of equal length; one of fewer than twice this
  /// is replayed whole, as with 0 (never cut).
  uint64_t Instructions = 8 << 20;
  /// Per traced thread, its events that start within this many trace instructions
  /// before a chunk, which the chunk's core simulates first, uncounted: they fill the
  /// pipeline as the whole replay had it. Counted in the trace, not in the variant's
  /// code, so that a worker need not refill what comes before.
  uint64_t WarmUp = 1 << 16;

  /// Below this, a chunk costs more to set up (its threads' cores) than to simulate.
  static constexpr uint64_t MinInstructions = 4096;
  /// A warm-up may be this many chunks long at most: the default 65536 still warms the
  /// smallest chunk, and 50000-instruction chunks (MCA's tests) with it.
  static constexpr uint64_t MaxWarmUpRatio = 16;

  /// Refuses settings that multiply the work a trace needs: tiny chunks, or a warm-up longer than the chunk it warms (with 10
  /// instructions a chunk and 65536 of warm-up, a 0.1 s replay took minutes).
  llvm::Error check() const {
    if (Instructions && Instructions < MinInstructions)
      return inputError("--chunk", "{} instructions is less than {}: each chunk would "
                                   "cost more than its instructions (0: no chunks)",
                        Instructions, MinInstructions);
    if (Instructions && WarmUp > MaxWarmUpRatio * Instructions)
      return inputError("--chunk-warm-up", "{} instructions is more than {} times the "
                                           "chunk's {}: each chunk would simulate far more "
                                           "warm-up than it counts",
                        WarmUp, MaxWarmUpRatio, Instructions);
    return llvm::Error::success();
  }

  /// The chunks of a trace of \p TraceInstructions: 1 means the whole trace at once.
  uint64_t count(uint64_t TraceInstructions) const {
    if (Instructions == 0 || TraceInstructions / Instructions < 2)
      return 1;
    return TraceInstructions / Instructions;
  }
  /// Where chunk \p C of \p Count starts, in instructions of a trace of
  /// \p TraceInstructions (C = Count: its end).
  static uint64_t start(uint64_t C, uint64_t Count, uint64_t TraceInstructions) {
    return static_cast<uint64_t>(static_cast<unsigned __int128>(TraceInstructions) * C /
                                 Count);
  }
};

} // namespace mlgo
