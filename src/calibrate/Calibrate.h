/// \file
/// `mlgo-ra calibrate`: measures on this host what the flow engine's core profile
/// holds (replay/CoreProfile.h). Each measurement is a loop of x86-64 instructions
/// whose one dependence chain runs through the effect, timed by this thread's CPU
/// seconds and turned into cycles with the clock a chain of multiplies gives (3 cycles
/// each on every x86-64 core of the last decade): a virtual machine often has no cycle
/// counter.
#pragma once

#include "replay/engine/CoreProfile.h"
#include "support/Json.h"

#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace mlgo {

/// One loop: its instructions, and its cycles an iteration.
struct LoopCycles {
  std::string Name, Code;
  double Cycles = 0;
  /// The cycles of the chain's ALU instructions (one cycle each): Cycles less these are
  /// the store-to-load path's.
  unsigned AluCycles = 0;
  double path() const { return Cycles - AluCycles; }
};

/// The loop of an add to a stack slot, again and again: its path is how soon an
/// operation on a slot has what the store before left there (SlotOperationCycles), not
/// a reload's forwarding.
inline constexpr const char *SlotOperationLoop = "slot_operation";

/// A pointer chased through memory (its path: a load's latency), and the same chase
/// with a store after each load whose address comes three multiplies after the load:
/// as fast where loads go ahead of unknown store addresses (SpeculativeLoads), 9 cycles
/// slower where they wait. Neither is a store-to-load path.
inline constexpr const char *PointerChaseLoop = "pointer_chase";
inline constexpr const char *LoadPastStoreLoop = "load_past_store";

/// Stores of one register to StoreThroughputStores slots an iteration, no chain: the
/// stores a cycle the core issues (StoresPerCycle).
inline constexpr const char *StoreThroughputLoop = "store_throughput";
inline constexpr unsigned StoreThroughputStores = 16;

/// Whether \p L has a store-to-load path: not the chases nor the store throughput.
inline bool hasStoreToLoadPath(const LoopCycles &L) {
  return L.Name != PointerChaseLoop && L.Name != LoadPastStoreLoop &&
         L.Name != StoreThroughputLoop;
}

/// One front-end loop: blocks of `lea; lea; jmp` (10 bytes) entered by taken jumps,
/// each at Offset in its 64-byte line, crossing a boundary of Crosses bytes (0: none),
/// and the cycles a block.
struct FetchCycles {
  std::string Name;
  unsigned Offset = 0, Crosses = 0;
  double Cycles = 0;
};

/// Whether the front end takes more than one jump a cycle (the first loop, in its line,
/// under 0.75 cycles a block: Zen 5, 0.65): two blocks a cycle.
inline bool takesTwoJumpsACycle(const std::vector<FetchCycles> &Fetch) {
  return !Fetch.empty() && Fetch.front().Crosses == 0 && Fetch.front().Cycles < 0.75;
}

/// The front end's other loops (FetchLoops.h), their cycles an iteration: a loop of N
/// operations in one 64-byte line, for N from 8 up (LineOpsLoop + N: past the most a
/// line delivers at once, a loop takes two cycles more), and the same loop of 8 nops, a
/// compare and its jump twice across a line boundary: the compare in one line and the
/// jump in the next (SplitJumpLoop), or both past the boundary (WholeJumpLoop).
inline constexpr const char *LineOpsLoop = "line_ops_";
inline constexpr const char *SplitJumpLoop = "split_jump";
inline constexpr const char *WholeJumpLoop = "whole_jump";

struct Calibration {
  std::string Host; ///< "AuthenticAMD family 25 model 17"
  double ClockGHz = 0;
  std::vector<LoopCycles> Loops;
  std::vector<FetchCycles> Fetch;
  std::vector<LoopCycles> FrontEnd;
  CoreProfile Profile;
};

struct CalibrateSettings {
  /// Rounds: each runs every loop once, and a loop's fastest round counts (the others
  /// met interruptions).
  unsigned Runs = 7;
  /// Iterations of a run (about 0.05 s each at 4 GHz).
  uint64_t Iterations = 40'000'000;
};

/// The profile that loops timed on a core (StoreLoadLoops.h, FetchLoops.h; their
/// cycles) give: renaming where a reload into the stored register and one into another
/// are both faster than forwarding, the forwarding latency (the slowest reload's path),
/// an operation on a slot's (its loop's path), the line where crossing it costs half a
/// cycle, two blocks a cycle where the front end takes two jumps a cycle, the
/// operations a line delivers (\p FrontEnd: the last loop before one that takes a
/// cycle more), the split jump's cost (its loop's cycles over the whole jump's, where
/// half a cycle or more), speculative loads where the store behind a chase costs it
/// less than half of the multiplies' 9 cycles, and the stores a cycle, rounded.
CoreProfile profileFromLoops(const std::vector<LoopCycles> &Loops,
                             const std::vector<FetchCycles> &Fetch,
                             const std::vector<LoopCycles> &FrontEnd = {});

/// Measures this host; fails on a host that is not x86-64.
llvm::Expected<Calibration> calibrateHost(const CalibrateSettings &Settings);

/// What a profile file holds, with the measurements it came from ("measurements").
Json calibrationJson(const Calibration &C, llvm::StringRef CPU);

} // namespace mlgo
