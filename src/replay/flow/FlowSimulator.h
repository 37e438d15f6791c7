/// \file
/// The flow engine: an out-of-order core timed in one pass over the instruction
/// stream, from the data LLVM MCA uses (FlowModel.h), without a per-cycle loop and
/// without allocating per instruction. Each instruction, in program order:
///  - dispatches in the first cycle D, not before the previous one's, with dispatch
///    slots left (dispatch width, in micro-ops; an instruction wider than that takes
///    whole cycles; begin- and end-group instructions start and end a cycle), room in
///    the reorder buffer (micro-ops of dispatched instructions; an entry is free from
///    the cycle after its instruction retired), in each scheduler it uses (instructions
///    dispatched; a place is free in its instruction's issue cycle) and in the load and
///    store queues (free as the reorder buffer's);
///  - issues in the first cycle T > D at which its operands are ready (an earlier
///    write's issue cycle plus its latency, less the read's advance; zero and
///    dependency-breaking idioms do not wait) and a unit of each processor resource it
///    uses is free for its cycles. Stores issue out of order, each when its own
///    operands are ready; a load from an address the engine does not follow (below: not
///    a stack slot; rbp counts as a frame pointer only while it points into the stack)
///    issues no sooner than the addresses of all older stores are known
///    (their base and index registers ready), since it may read what one of them
///    writes (with the trace's load dependences, LoadWaits.h, only a data load that
///    read what a recent store wrote does; on a core whose CoreProfile says it
///    speculates, SpeculativeLoads, none does without them: a predictor lets loads go
///    ahead, and one that aliased would be held). Because older instructions book
///    resources first, younger ones take the cycles left over: oldest-first selection
///    among ready instructions, as MCA's scheduler does it. Instructions without
///    latency or resources (and eliminated register moves) are done at D, their values
///    ready no sooner than their operands;
///  - completes at T plus its latency, and retires at the first cycle R after the
///    previous one's retirement and its completion (retire width permitting).
/// The cycles of a stream end with its last retirement.
///
/// What MCA does not model and real cores do, for the spills and reloads that
/// eviction policies change:
///  - the stack engine: push, pop, call and ret do not wait for one another's stack
///    pointer (McaTarget's --stack-engine for MCA);
///  - move elimination where the model declares none (LLVM's Intel models):
///    register-to-register moves are renamed away (FlowTarget::renamesMove);
///  - where an Emerald Rapids core differs from LLVM's Golden Cove model: a register
///    xor takes one cycle, a rotate by an immediate one micro-op (FlowTarget::correct,
///    target/X86/X86FlowTarget.cpp);
///  - branch mispredictions: after a transfer of control that the thread's predictor
///    got wrong (RefilledCode::Mispredicted, BranchPredictor.h), no younger instruction
///    dispatches before the previous event's last jump or call completes plus the
///    model's MispredictPenalty. An allocation changes how late a branch resolves: a
///    compare that waits for a reload makes each misprediction cost more;
///  - store-to-load forwarding: a load of a stack slot (a push or a [rsp + c] or
///    [rbp + c] store, the frame registers followed through push, pop, call, ret, add,
///    sub, lea and mov) that an earlier store wrote gets its value no sooner than a
///    load's latency plus ForwardingCycles after that store issued (a CoreProfile's
///    ForwardedReloadCycles after it, where the profile measured it). Where a
///    CoreProfile names SlotOperationCycles, an operation on a slot (add [rsp + 8], 1)
///    gets the stored value that long after the store and stores a cycle later, and a
///    later reload of the slot waits for that; without, it stores when it issues. MCA
///    treats every load as independent of every store. On a core that renames memory (a
///    CoreProfile's RenamedReloadCycles), a plain register reload of a slot that a
///    register store of the same size wrote gets the stored value that many cycles
///    after the store issued, but no sooner than a load's latency after its own
///    dispatch: renaming pays only where dispatch runs ahead of the data, not after a
///    misprediction (bench/tools/forwarding.c: after lfence a reload costs 3-4 cycles more
///    than a register copy on Zen 4). It still issues and uses a load port, as the core
///    checks the renaming with a load;
///  - the front end, where a CoreProfile names its line (FetchLineBytes): one block of
///    code fetched a cycle, a block ending at a taken transfer (an event that does not
///    start where the one before ended, or in another function) and where the code
///    enters the next line, lines counted from the start of the code's function
///    (RefilledCode::LineBase: -falign-functions=64 puts it at a line, and an object's
///    code then fetches as it will linked); no instruction dispatches before
///    its block was fetched, and fetch runs at most FetchLeadCycles ahead of dispatch.
///    Where the profile names them, FetchBlocksPerCycle blocks are fetched a cycle; a
///    block's line that holds more than LineOps operations takes two more cycles for
///    each further LineOps of them or part (a conditional jump counting with the
///    instruction before it); and a jump that does not end in the line where the
///    instruction before it starts takes SplitJumpCycles more.
///    Refilled code carries each instruction's bytes for it (RefilledCode::Sizes);
///  - the store throughput, where a CoreProfile names it (StoresPerCycle): a plain
///    store holds each processor resource no longer than lets that many through a
///    cycle (FlowModel.cpp; Zen 4's model lets one through, Zen 5 issues two; no
///    built-in profile names it: it ranked the arena worse).
#pragma once

#include "replay/engine/CoreSimulator.h"
#include "replay/flow/FlowModel.h"
#include "replay/refill/LoadWaits.h"

#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <vector>

namespace mlgo {

class FlowSimulator : public CoreSimulator {
public:
  /// \p Waits (may be null) outlives the core.
  FlowSimulator(const FlowModel &Model, uint32_t NumFunctions,
                const LoadWaits *Waits = nullptr);
  ~FlowSimulator() override;

  llvm::Error add(const RefilledCode &Code) override;
  llvm::Error finish() override;

  /// Branches the predictor got wrong so far.
  uint64_t mispredictions() const { return Mispredictions; }

  /// How many cycles the front end may fetch ahead of dispatch (its queue between):
  /// after dispatch stalled, it catches up no further than this. An assumption (Zen 4
  /// and Skylake queue 64 or more micro-ops, about 10 cycles of dispatch); the taken
  /// transfers and line crossings of the code, not the queue, are what variants change.
  static constexpr uint64_t FetchLeadCycles = 10;

  /// A load forwarded from a store gets its value this much later than a load from the
  /// cache would. Fitted on bench/accuracy's measured variants (docs/results/accuracy.md):
  /// with 0 or 1, parse's stress variants, whose reloads wait for recent spills, rank as
  /// faster than the baseline; 2 and 3 rank the workloads alike.
  static constexpr uint64_t ForwardingCycles = 2;

private:
  class Lanes;
  class Frames;
  class Scheduler;
  struct Retirements;
  struct Op;

  /// The descriptions of \p Code's instructions.
  llvm::Expected<llvm::ArrayRef<Op>> describe(const RefilledCode &Code);
  /// Whether the front end fetches \p Code: modeled, and the code has its sizes.
  bool fetched(const RefilledCode &Code) const {
    return Fetches && Code.Sizes.size() == Code.Instructions.size();
  }
  /// Sets, per data load of a segment's \p Ops, whether it waits for older stores.
  static void applyLoadWaits(llvm::MutableArrayRef<Op> Ops, llvm::ArrayRef<uint8_t> Waits);
  /// The same for code described before, found by its segment (most events); else
  /// empty.
  llvm::ArrayRef<Op> describedSegment(const RefilledCode &Code) const;
  uint64_t dispatch(const Op &O);
  /// When a load whose latency from the cache is \p LoadCycles has the value a store
  /// that issued at \p StoreIssue left in its slot: the profile's forwarding latency
  /// after the store, else LoadCycles and ForwardingCycles.
  uint64_t forwardedValue(uint64_t StoreIssue, uint64_t LoadCycles) const {
    return StoreIssue + (ForwardsInProfile ? ForwardedReloadCycles : LoadCycles + ForwardingCycles);
  }
  /// The first cycle from \p Ready on at which the resources are free, booked.
  uint64_t book(llvm::ArrayRef<FlowResourceUse> Uses, uint64_t Ready);
  /// The same for one unit of one resource.
  uint64_t bookOne(const FlowResourceUse &U, uint64_t Ready);
  /// When the last of \p Units' values is ready.
  uint64_t operands(llvm::ArrayRef<uint16_t> Units) const;
  /// The same for I's reads that a write may forward to early.
  uint64_t advancedOperands(const FlowInstruction &I) const;
  /// Times \p O; returns when it completes.
  uint64_t time(const Op &O);
  /// Dispatch waits until \p Cycle, a new cycle, if later than the dispatch cycle;
  /// returns whether it was.
  bool waitUntil(uint64_t Cycle);
  void retire(const Op &O, uint64_t Complete);
  /// The front end (CoreProfile::FetchLineBytes): instruction K of \p Code, \p O, is
  /// fetched (the block it is in: a new one after a taken transfer, one more each line
  /// entered) and dispatch waits for it.
  void fetch(const RefilledCode &Code, size_t K, const Op &O);
  /// The blocks instruction K of \p Code starts when the fetch before it ended at
  /// \p Next, in line \p Line (from Code.LineBase).
  uint64_t blocksStarted(const RefilledCode &Code, size_t K, uint64_t Next,
                         uint64_t Line) const;
  /// Whether an instruction that ends before \p End, a jump where \p Jumps, splits
  /// from the instruction before it, which starts at \p Before
  /// (CoreProfile::SplitJumpCycles).
  bool splitsJump(bool Jumps, uint64_t Before, uint64_t End, uint64_t Base) const {
    return Jumps && lineOf(Before, Base) != lineOf(End - 1, Base);
  }
  /// The front end's line of \p Address, counted from \p Base.
  uint64_t lineOf(uint64_t Address, uint64_t Base) const {
    return (Address - Base) >> FetchLineShift;
  }

  const FlowModel &Model;
  const LoadWaits *Waits;
  /// Model's widths and sizes that each instruction reads, at hand.
  const unsigned DispatchWidth, ReorderBufferSize, RetireLimit; ///< retire: unbounded ~0
  const unsigned MispredictPenalty, LoadLatency;
  /// The core renames memory (CoreProfile::RenamedReloadCycles): with what latency.
  const bool Renames;
  const uint64_t RenamedReloadCycles;
  /// The profile names the store-to-load forwarding latency
  /// (CoreProfile::ForwardedReloadCycles): a forwarded value comes that long after the
  /// store issued, instead of a load's latency plus ForwardingCycles.
  const bool ForwardsInProfile;
  const uint64_t ForwardedReloadCycles;
  /// The profile names how soon an operation on a slot has the value a store left
  /// there (CoreProfile::SlotOperationCycles); without, the operation stores when it
  /// issues.
  const bool OperatesInProfile;
  const uint64_t SlotOperationCycles;
  /// Loads go ahead of older stores' unknown addresses (CoreProfile::SpeculativeLoads),
  /// unless the trace's load dependences hold them.
  const bool Speculates;
  /// The front end is modeled (CoreProfile::FetchLineBytes): log2 of its line's bytes.
  const bool Fetches;
  const unsigned FetchLineShift;
  /// CoreProfile::LineOps, FetchBlocksPerCycle and SplitJumpCycles (0, 1 and 0 where
  /// the profile names none).
  const unsigned LineOps, FetchBlocksPerCycle, SplitJumpCycles;
  /// The descriptions of the instructions of events timed before, by where the
  /// event's instructions start: Count of them in Ops from First.
  struct Described {
    uint32_t First = 0, Count = 0;
    /// With the front end's blocks (Op::FetchBlocks): described from code with its
    /// instructions' sizes (a chunk's warm-up hands code over without).
    bool Fetched = false;
  };
  /// By trace segment (RefilledCode::Segment): the same, and where the code was.
  struct DescribedSegment : Described {
    const llvm::MCInst *Code = nullptr;
  };
  std::vector<DescribedSegment> DescribedBySegment;
  struct CodeAddress : llvm::DenseMapInfo<const llvm::MCInst *> {
    /// Refilled code lies in large vectors: their addresses differ in few bits.
    static unsigned getHashValue(const llvm::MCInst *Code) {
      uint64_t Address = reinterpret_cast<uintptr_t>(Code);
      return static_cast<unsigned>((Address * 0x9E3779B97F4A7C15ull) >> 32);
    }
  };
  llvm::DenseMap<const llvm::MCInst *, Described, CodeAddress> DescribedByCode;
  std::vector<Op> Ops;

  // Fetch: the cycle of the block being fetched, its line, the address after the last
  // instruction fetched (another: a taken transfer) and where its lines count from.
  uint64_t FetchCycle = 0, FetchLine = 0, FetchNext = ~uint64_t(0), FetchBase = 0;
  /// The operations fetched of the block's current line (CoreProfile::LineOps), the
  /// blocks fetched in the current cycle (CoreProfile::FetchBlocksPerCycle) and where
  /// the last instruction fetched starts (CoreProfile::SplitJumpCycles).
  unsigned LineOpsFetched = 0, BlocksThisCycle = 0;
  uint64_t FetchLast = ~uint64_t(0);

  // Dispatch.
  uint64_t DispatchCycle = 0;
  unsigned SlotsUsed = 0, MovesEliminatedNow = 0;
  bool GroupEnded = false;
  std::unique_ptr<Retirements> InFlight;
  /// The model's schedulers and one more, never full, for instructions without one.
  std::vector<Scheduler> Schedulers;
  const unsigned LoadQueueLimit, StoreQueueLimit; ///< read only where bounded

  // Issue.
  std::unique_ptr<Lanes> Busy;
  /// Per register unit, when its last write's value is ready (above bit 16) and what
  /// wrote it (the write resource, below): the latest of several is their largest.
  /// (Two more: a unit never written, that Op's reads are padded with, and one never
  /// read, for its writes.)
  std::vector<uint64_t> UnitValues;
  std::vector<uint32_t> NextLane; ///< per resource: where the search for a unit starts
  /// When the addresses of all stores so far are known.
  uint64_t StoreAddressesKnown = 0;
  std::unique_ptr<Frames> Memory;
  uint64_t LastEvent = ~uint64_t(0);

  // Branches: when the last jump or call of the previous event completed (0: it had
  // none).
  uint64_t BranchResolved = 0, Mispredictions = 0;

  // Retirement.
  uint64_t LastRetire = 0;
  unsigned RetiredNow = 0; ///< in cycle LastRetire; 0: none retired yet
};

} // namespace mlgo
