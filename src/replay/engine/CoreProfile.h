/// \file
/// What a CPU core does that its LLVM scheduling model does not say, as numbers
/// measured on the core (`mlgo-ra calibrate`, docs/calibrate.md) and read by the flow
/// engine. A profile changes only the rules it names a number for; without one the
/// engine follows the scheduling model and its own fixed rules (FlowSimulator.h).
#pragma once

#include "support/Json.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>

namespace mlgo {

struct CoreProfile {
  /// Where it comes from: a file's path, "built-in znver4", or empty (no profile).
  std::string Source;
  /// The core it was measured on ("AuthenticAMD family 25 model 17"), for people.
  std::string MeasuredOn;
  /// Memory renaming: a plain 32- or 64-bit register load (mov, pop) of a stack slot
  /// that a store of a whole register of the same size wrote (mov, push) gets the
  /// stored register's value this many cycles after the store's data is ready, no
  /// sooner than it dispatches, instead of by forwarding from the store. Zen 2 and
  /// Zen 4 do this at renaming (0 cycles); none: the engine's forwarding rule.
  std::optional<unsigned> RenamedReloadCycles;
  /// Store-to-load forwarding: a load of a stack slot that an earlier store wrote, and
  /// that is not renamed, gets the stored value this many cycles after the store
  /// issued (5 on the Intel of family 6 model 207, where LLVM's model charges a load's
  /// 5 cycles and the engine 2 more). None: a load's latency plus
  /// FlowSimulator::ForwardingCycles.
  std::optional<unsigned> ForwardedReloadCycles;
  /// An operation on a stack slot (add [rsp + 8], 1) gets the value an earlier store
  /// left there this many cycles after the store's data was ready (0 on the Intel of
  /// family 6 model 207: a chain of such adds runs at an add a cycle), and stores a
  /// cycle later. None: it stores when it issues, whenever the value comes.
  std::optional<unsigned> SlotOperationCycles;
  /// The front end: it fetches one block of code a cycle, and a block ends at a taken
  /// transfer of control and where the code enters the next aligned line of this many
  /// bytes (64 on Zen 4: a block of two instructions across a line boundary takes two
  /// cycles). None: the front end keeps up with dispatch.
  std::optional<unsigned> FetchLineBytes;
  /// The front end's operations a cycle from one line of a block: a block that holds
  /// more in one line takes two cycles more for each further LineOps or part of them
  /// (Zen 5: 12; a loop of 13 in a line takes 3 cycles, of 25 to 36 5 cycles). A
  /// conditional jump after the instruction that sets its flags counts with it. None:
  /// no limit; only with FetchLineBytes.
  std::optional<unsigned> LineOps;
  /// The blocks the front end fetches a cycle (Zen 5: 2, two taken jumps a cycle).
  /// None: one; only with FetchLineBytes.
  std::optional<unsigned> FetchBlocksPerCycle;
  /// A jump that does not end in the line where the instruction before it starts (it
  /// lies across the boundary, or its compare is in the line before) costs the fetch
  /// this many cycles more (Zen 5: 1, taken or not). None: nothing; only with
  /// FetchLineBytes.
  std::optional<unsigned> SplitJumpCycles;
  /// Memory dependence prediction: a load issues before older stores' addresses are
  /// known, as if it read none of them (Zen 4: a pointer chase runs at its load latency
  /// with a store behind it whose address comes 9 cycles after each load). False: every
  /// load off the stack waits for them; with a trace's load dependences, those decide.
  bool SpeculativeLoads = false;
  /// Store throughput: plain stores (mov or push of a general register or an immediate,
  /// FlowInstruction::PlainStore) that issue a cycle at most; each holds its resources
  /// no longer than lets that many through. LLVM's Zen 4 model lets one through a cycle
  /// (a store holds one of two store units for 2 cycles); Zen 5 issues two (calibrate
  /// measures it; the built-in profile leaves it out). None: the model's resource cycles.
  std::optional<unsigned> StoresPerCycle;

  bool empty() const {
    return !RenamedReloadCycles && !ForwardedReloadCycles && !SlotOperationCycles &&
           !FetchLineBytes && !LineOps && !FetchBlocksPerCycle && !SplitJumpCycles &&
           !SpeculativeLoads && !StoresPerCycle;
  }
  /// What a replay cache key needs: the numbers, not where they came from; "" when
  /// empty, so that the keys of replays without a profile stay as they were.
  std::string identity() const;
};

/// The profile of a CPU this project measured, by its LLVM name (--mcpu): empty for
/// others.
CoreProfile builtInCoreProfile(llvm::StringRef CPU);

/// Reads a profile that coreProfileJson made; errors name \p Path.
llvm::Expected<CoreProfile> readCoreProfile(llvm::StringRef Path);

/// \p Profile as a file holds it (format "mlgo-ra core profile", version 1), for
/// \p CPU (the LLVM name of the core it was measured on).
Json coreProfileJson(const CoreProfile &Profile, llvm::StringRef CPU);

/// --core-profile's value: "auto" (the built-in profile of \p CPU, if any), "none" or
/// a file.
llvm::Expected<CoreProfile> resolveCoreProfile(llvm::StringRef Option, llvm::StringRef CPU);

} // namespace mlgo
