/// \file
/// The flow engine's one pass: dispatch, issue, completion and retirement of each
/// instruction in program order, against the bookings of the instructions before it.
#include "replay/flow/FlowSimulator.h"
#include "detail/Frames.h"
#include "detail/Lanes.h"
#include "detail/Op.h"
#include "detail/Retirements.h"
#include "detail/Scheduler.h"
#include "support/Error.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/bit.h"

#include <algorithm>
#include <cassert>

namespace mlgo {

namespace {
/// The longest search for free resources, and the longest booking, in cycles.
constexpr uint64_t MaxSearch = 4096, MaxBooking = 1024;
} // namespace

FlowSimulator::FlowSimulator(const FlowModel &Model, uint32_t NumFunctions,
                             const LoadWaits *Waits)
    : CoreSimulator(NumFunctions), Model(Model), Waits(Waits),
      DispatchWidth(Model.dispatchWidth()),
      ReorderBufferSize(Model.reorderBuffer()),
      RetireLimit(Model.retireWidth() ? Model.retireWidth() : ~0u),
      MispredictPenalty(Model.mispredictPenalty()), LoadLatency(Model.loadLatency()),
      Renames(Model.profile().RenamedReloadCycles.has_value()),
      RenamedReloadCycles(Model.profile().RenamedReloadCycles.value_or(0)),
      ForwardsInProfile(Model.profile().ForwardedReloadCycles.has_value()),
      ForwardedReloadCycles(Model.profile().ForwardedReloadCycles.value_or(0)),
      OperatesInProfile(Model.profile().SlotOperationCycles.has_value()),
      SlotOperationCycles(Model.profile().SlotOperationCycles.value_or(0)),
      Speculates(Model.profile().SpeculativeLoads),
      Fetches(Model.profile().FetchLineBytes.has_value()),
      FetchLineShift(llvm::countr_zero(Model.profile().FetchLineBytes.value_or(1))),
      LineOps(Model.profile().LineOps.value_or(0)),
      FetchBlocksPerCycle(Model.profile().FetchBlocksPerCycle.value_or(1)),
      SplitJumpCycles(Model.profile().SplitJumpCycles.value_or(0)),
      InFlight(std::make_unique<Retirements>(Model.reorderBuffer(), Model.loadQueue(),
                                             Model.storeQueue())),
      LoadQueueLimit(Model.loadQueue()), StoreQueueLimit(Model.storeQueue()),
      Busy(std::make_unique<Lanes>()),
      UnitValues(Model.numRegisterUnits() + 2, 0),
      NextLane(Model.numResources(), 0), Memory(std::make_unique<Frames>()) {
  Schedulers.reserve(Model.buffers().size() + 1);
  for (unsigned Size : Model.buffers())
    Schedulers.emplace_back(Size);
  Schedulers.emplace_back(~0u);
}

FlowSimulator::~FlowSimulator() = default;

llvm::Expected<llvm::ArrayRef<FlowSimulator::Op>>
FlowSimulator::describe(const RefilledCode &Code) {
  // Refilled code stays where it is and as it is for a core's life (Refill.h): the
  // descriptions of an event's instructions are found by where they start.
  Described &Found = DescribedByCode[Code.Instructions.data()];
  bool Fetched = fetched(Code);
  if (Found.Count < Code.Instructions.size() || (Fetched && !Found.Fetched)) {
    Found = {static_cast<uint32_t>(Ops.size()), static_cast<uint32_t>(Code.Instructions.size()),
             Fetched};
    for (size_t K = 0; K < Code.Instructions.size(); ++K) {
      auto D = Model.describe(Code.Instructions[K]);
      if (!D)
        return stageError("the flow engine cannot time the instruction at {:#x}: {}",
                          Code.Addresses[K], llvm::toString(D.takeError()));
      Ops.emplace_back(**D, Model, static_cast<uint8_t>(Model.buffers().size()));
    }
    if (Fetched)
      for (size_t K = 1; K < Code.Instructions.size(); ++K) {
        uint64_t Next = Code.Addresses[K - 1] + Code.Sizes[K - 1];
        Op &O = Ops[Found.First + K];
        O.FetchBlocks = static_cast<uint8_t>(
            blocksStarted(Code, K, Next, lineOf(Next - 1, Code.LineBase)));
        O.SplitsJump = Code.Addresses[K] == Next &&
                       splitsJump(O.Branches, Code.Addresses[K - 1],
                                  Code.Addresses[K] + Code.Sizes[K], Code.LineBase);
      }
    if (Waits && Code.Segment != RefilledCode::NoSegment)
      applyLoadWaits(llvm::MutableArrayRef(Ops).slice(Found.First, Found.Count),
                     Waits->of(Code.Segment));
  }
  assert(llvm::all_of(llvm::seq<size_t>(0, Code.Instructions.size()), [&](size_t K) {
    return sameInstruction(Ops[Found.First + K].Full->Instruction, Code.Instructions[K]);
  }));
  if (Code.Segment != RefilledCode::NoSegment) {
    if (Code.Segment >= DescribedBySegment.size())
      DescribedBySegment.resize(Code.Segment + 1);
    DescribedBySegment[Code.Segment] = {Found, Code.Instructions.data()};
  }
  return llvm::ArrayRef(Ops).slice(Found.First, Code.Instructions.size());
}

void FlowSimulator::applyLoadWaits(llvm::MutableArrayRef<Op> Segment,
                                   llvm::ArrayRef<uint8_t> Waits) {
  // The data loads match the traced binary's only if there are as many: register
  // allocation does not add or remove them, other changes (a frame pointer's reloads,
  // rematerialized loads) may.
  auto DataLoads =
      llvm::make_filter_range(Segment, [](const Op &O) { return O.Full->DataLoad; });
  size_t Count = std::distance(DataLoads.begin(), DataLoads.end());
  if (Waits.empty() || Count != Waits.size())
    return;
  size_t K = 0;
  for (Op &O : DataLoads) {
    O.LoadsUnfollowed = Waits[K++];
    O.DependenceKnown = true;
  }
}

LLVM_ATTRIBUTE_ALWAYS_INLINE llvm::ArrayRef<FlowSimulator::Op>
FlowSimulator::describedSegment(const RefilledCode &Code) const {
  // The code must be where it was: a core may see several variants' code.
  if (Code.Segment >= DescribedBySegment.size())
    return {};
  const DescribedSegment &Found = DescribedBySegment[Code.Segment];
  if (Found.Code != Code.Instructions.data() || Found.Count != Code.Instructions.size() ||
      (!Found.Fetched && fetched(Code)))
    return {};
  return llvm::ArrayRef(Ops).slice(Found.First, Found.Count);
}

LLVM_ATTRIBUTE_ALWAYS_INLINE bool FlowSimulator::waitUntil(uint64_t Cycle) {
  if (Cycle <= DispatchCycle)
    return false;
  DispatchCycle = Cycle;
  SlotsUsed = MovesEliminatedNow = 0;
  return true;
}

llvm::Error FlowSimulator::add(const RefilledCode &Code) {
  // Events in between were not handed over (unmapped code left out): the frame
  // registers may have moved meanwhile.
  if (Code.Event != LastEvent + 1)
    Memory->forget();
  if (Code.Mispredicted && Code.Event == LastEvent + 1 && BranchResolved) {
    ++Mispredictions;
    // Dispatch resumes with the right instructions, in a cycle of their own.
    if (waitUntil(BranchResolved + MispredictPenalty))
      GroupEnded = false;
    // Fetch restarts there too: the right block is fetched in the cycle it dispatches.
    FetchCycle = std::max(FetchCycle, DispatchCycle - std::min<uint64_t>(DispatchCycle, 1));
    BlocksThisCycle = 0;
  }
  BranchResolved = 0;
  LastEvent = Code.Event;
  if (Code.Instructions.empty())
    return llvm::Error::success();
  llvm::ArrayRef<Op> Described = describedSegment(Code);
  if (Described.empty()) {
    auto New = describe(Code);
    if (!New)
      return New.takeError();
    Described = *New;
  }
  // Retirement happens within cycle LastRetire, so LastRetire + 1 cycles have passed.
  // An event's instructions retire together unless each one's cycles are asked for.
  bool OneByOne = recordsInstructionCycles();
  // Code without its instructions' sizes (built by hand, a chunk's warm-up) is not
  // fetched.
  bool Fetched = fetched(Code);
  for (size_t K = 0; K < Described.size(); ++K) {
    const Op &O = Described[K];
    if (Fetched)
      fetch(Code, K, O);
    uint64_t Complete = time(O);
    // Without a branch: a transfer ends a segment, or comes just before its last jump.
    BranchResolved = O.Branches ? Complete : BranchResolved;
    if (OneByOne)
      retired(Code.Function, Code.Event, LastRetire + 1);
  }
  if (!OneByOne)
    retired(Code.Function, Code.Event, LastRetire + 1, Code.Instructions.size());
  if (Fetched) { // where the next event's fetch goes on from
    FetchNext = Code.Addresses.back() + Code.Sizes.back();
    FetchLine = lineOf(FetchNext - 1, FetchBase);
    FetchLast = Code.Addresses.back();
  }
  return llvm::Error::success();
}

uint64_t FlowSimulator::blocksStarted(const RefilledCode &Code, size_t K, uint64_t Next,
                                      uint64_t Line) const {
  uint64_t Address = Code.Addresses[K], End = Address + Code.Sizes[K];
  uint64_t Blocks = 0;
  if (Address != Next) {
    // A taken transfer: a new block, from its line.
    Blocks = 1;
    Line = lineOf(Address, Code.LineBase);
  }
  return Blocks + (lineOf(End - 1, Code.LineBase) - Line);
}

LLVM_ATTRIBUTE_ALWAYS_INLINE void FlowSimulator::fetch(const RefilledCode &Code, size_t K,
                                                       const Op &O) {
  // Within an event the blocks are the code's, described with it; only the first
  // instruction's follow from where the fetch before ended.
  uint64_t Blocks = O.FetchBlocks;
  bool Split = O.SplitsJump;
  if (K == 0) {
    uint64_t Next = FetchNext;
    if (Code.LineBase != FetchBase) { // another function: a taken transfer
      FetchBase = Code.LineBase;
      Next = ~uint64_t(0);
    }
    Blocks = blocksStarted(Code, 0, Next, FetchLine);
    // Only where it costs: this runs for every event's first instruction.
    Split = SplitJumpCycles && Code.Addresses[0] == Next &&
            splitsJump(O.Branches, FetchLast, Code.Addresses[0] + Code.Sizes[0], FetchBase);
  }
  uint64_t Cycles = Blocks;
  if (FetchBlocksPerCycle > 1) {
    // Every FetchBlocksPerCycle-th block starts a cycle; the others go on in its cycle.
    uint64_t Before = BlocksThisCycle + FetchBlocksPerCycle - 1;
    Cycles = (Before + Blocks) / FetchBlocksPerCycle - Before / FetchBlocksPerCycle;
    BlocksThisCycle = static_cast<unsigned>((BlocksThisCycle + Blocks) % FetchBlocksPerCycle);
  }
  if (LineOps) {
    // Past the line's first LineOps operations, each further LineOps or part of them
    // costs the fetch two cycles (Zen 5: what a line's op-cache entries do not hold).
    LineOpsFetched = (Blocks ? 0 : LineOpsFetched) + !O.Fuses;
    Cycles += (!O.Fuses && LineOpsFetched > LineOps && (LineOpsFetched - 1) % LineOps == 0)
                  ? 2
                  : 0;
  }
  Cycles += Split ? SplitJumpCycles : 0;
  if (Cycles) {
    // After dispatch stalled, the front end has fetched ahead, but only so far.
    uint64_t Ahead = DispatchCycle - std::min(DispatchCycle, FetchLeadCycles);
    FetchCycle = std::max(FetchCycle + Cycles, Ahead);
    waitUntil(FetchCycle);
  }
}

LLVM_ATTRIBUTE_ALWAYS_INLINE uint64_t FlowSimulator::dispatch(const Op &I) {
  // The next cycle, without a branch: when a cycle fills up follows no pattern.
  bool NextCycle = GroupEnded | (I.BeginGroup & (SlotsUsed != 0)) |
                   (SlotsUsed + I.FirstSlots > DispatchWidth);
  unsigned Keep = unsigned(NextCycle) - 1; // all ones: the same cycle
  DispatchCycle += NextCycle;
  SlotsUsed &= Keep;
  MovesEliminatedNow &= Keep;
  GroupEnded = I.EndGroup;

  // An entry retired in cycle R is free from R + 1 on. Entries leave only when room is
  // needed: instructions retire in order, so while the oldest has not retired, none
  // has, and the wait is for the oldest either way.
  Retirements &R = *InFlight;
  auto &Rob = R.ReorderBuffer;
  if (R.MicroOps + I.MicroOps > ReorderBufferSize) {
    while (!Rob.empty() && Rob.front().Retire < DispatchCycle) {
      R.MicroOps -= Rob.front().MicroOps;
      Rob.pop();
    }
    while (R.MicroOps + I.MicroOps > ReorderBufferSize && !Rob.empty()) {
      waitUntil(Rob.front().Retire + 1);
      R.MicroOps -= Rob.front().MicroOps;
      Rob.pop();
    }
  }
  // The same for the load and store queues (only bounded ones are kept). Bitwise, not
  // logical, so that no branch depends on the data; the casts tell clang it is meant.
  if ((I.LoadQueued | I.StoreQueued) &&
      (int(I.LoadQueued & (R.Loads.size() >= LoadQueueLimit)) |
       int(I.StoreQueued & (R.Stores.size() >= StoreQueueLimit)))) {
    auto queue = [&](Ring<uint64_t> &Queue, unsigned Size) {
      while (!Queue.empty() && Queue.front() < DispatchCycle)
        Queue.pop();
      if (Queue.size() >= Size) {
        waitUntil(Queue.front() + 1);
        Queue.pop();
      }
    };
    if (I.LoadQueued)
      queue(R.Loads, LoadQueueLimit);
    if (I.StoreQueued)
      queue(R.Stores, StoreQueueLimit);
  }
  // A scheduler entry is free from its instruction's issue cycle on; the entries that
  // left are counted out only when the scheduler may be full.
  auto fit = [&](uint8_t B) {
    Scheduler &S = Schedulers[B];
    if (!S.mayBeFull(DispatchCycle))
      return;
    S.advanceTo(DispatchCycle);
    while (S.full()) {
      waitUntil(S.nextLeaving());
      S.advanceTo(DispatchCycle);
    }
  };
  llvm::for_each(I.buffers(), fit);

  uint64_t Dispatched = DispatchCycle;
  // Wider than the dispatch width: whole cycles, and the rest of the last one.
  DispatchCycle += I.WholeCycles;
  SlotsUsed += I.LastSlots;
  return Dispatched;
}

uint64_t FlowSimulator::book(llvm::ArrayRef<FlowResourceUse> Uses, uint64_t Ready) {
  struct Chosen {
    uint64_t Lanes;
    unsigned Cycles;
  };
  Chosen Picks[MaxResources];
  unsigned NumPicks = Uses.size();
  // Resources that stay busy for thousands of cycles do not exist; a search that long
  // gives up and books nothing, rather than running on.
  uint64_t GiveUp = std::min(Ready + MaxSearch, Busy->limit() - MaxBooking);
  uint64_t T = Ready, Taken = 0;
  for (unsigned K = 0; K < NumPicks;) {
    const FlowResourceUse &U = Uses[K];
    uint64_t Wanted = U.Lanes & ~Taken; // a unit this instruction holds is not free
    uint64_t Free = Busy->freeOf(Wanted, T, U.Cycles);
    if (U.Reserved ? Free == Wanted : Free != 0) {
      uint64_t Pick = Wanted; // a reserved group: all of it, but for units held
      if (!U.Reserved) {
        // Units of a group take turns, as MCA's resource selection does: the first
        // free one from where the previous choice left off.
        uint64_t After = Free & (~uint64_t(0) << NextLane[U.Resource]);
        uint64_t From = After ? After : Free;
        Pick = From & -From;
      }
      Picks[K++] = {Pick, U.Cycles};
      Taken |= Pick;
      continue;
    }
    // Not at T: the next cycle at which this resource has a unit free, and there
    // every resource is chosen again.
    do
      ++T;
    while (T < GiveUp && !Busy->freeOf(U.Lanes, T, 1));
    if (T >= GiveUp)
      return Ready;
    K = 0;
    Taken = 0;
  }
  for (unsigned K = 0; K < NumPicks; ++K) {
    Busy->book(Picks[K].Lanes, T, Picks[K].Cycles);
    if (!Uses[K].Reserved)
      NextLane[Uses[K].Resource] =
          (llvm::countr_zero(Picks[K].Lanes) + 1) & 63;
  }
  return T;
}

LLVM_ATTRIBUTE_ALWAYS_INLINE uint64_t FlowSimulator::bookOne(const FlowResourceUse &U,
                                                             uint64_t Ready) {
  // book() for one resource, one unit of it.
  uint64_t GiveUp = std::min(Ready + MaxSearch, Busy->limit() - MaxBooking);
  uint64_t T = Ready, Free;
  while (!(Free = Busy->freeOf(U.Lanes, T, U.Cycles))) {
    do
      ++T;
    while (T < GiveUp && !Busy->freeOf(U.Lanes, T, 1));
    if (T >= GiveUp)
      return Ready;
  }
  uint64_t After = Free & (~uint64_t(0) << NextLane[U.Resource]);
  uint64_t From = After ? After : Free;
  uint64_t Pick = From & -From;
  Busy->book(Pick, T, U.Cycles);
  NextLane[U.Resource] = (llvm::countr_zero(Pick) + 1) & 63;
  return T;
}

uint64_t FlowSimulator::operands(llvm::ArrayRef<uint16_t> Units) const {
  uint64_t Latest = 0;
  for (uint16_t U : Units)
    Latest = std::max(Latest, UnitValues[U]);
  return Latest >> 16;
}

uint64_t FlowSimulator::advancedOperands(const FlowInstruction &I) const {
  uint64_t Operands = 0;
  for (const FlowRead &R : I.AdvancedReads)
    for (uint16_t U : llvm::ArrayRef(I.Units).slice(R.FirstUnit, R.NumUnits)) {
      uint64_t At = UnitValues[U] >> 16;
      int64_t Advance = Model.readAdvance(R, static_cast<uint16_t>(UnitValues[U]));
      At = Advance > 0 ? At - std::min<uint64_t>(At, Advance) : At - Advance;
      Operands = std::max(Operands, At);
    }
  return Operands;
}

LLVM_ATTRIBUTE_ALWAYS_INLINE uint64_t FlowSimulator::time(const Op &O) {
  uint64_t D = dispatch(O);
  Busy->advanceTo(D);
  uint64_t Operands = operands(O.ReadUnits);
  if (O.MoreReads) {
    const FlowInstruction &I = *O.Full;
    auto Beyond = llvm::ArrayRef(I.ReadUnits)
                      .drop_front(std::min<size_t>(I.ReadUnits.size(), Op::MaxReads));
    Operands = std::max({Operands, operands(Beyond), advancedOperands(I)});
  }
  auto write = [&](unsigned W, uint64_t At) {
    for (unsigned K = 0; K < Op::WriteUnitsOf[W]; ++K)
      UnitValues[O.WriteUnits[Op::firstWriteUnit(W) + K]] = At << 16 | O.WriteResource[W];
  };
  auto issue = [&](uint64_t Ready, bool LoadsElsewhere = false) {
    // The trace's load dependences decide where known; else a load off the stack
    // waits, unless the core speculates.
    bool Held = O.DependenceKnown ? O.LoadsUnfollowed
                                  : (!Speculates) & (O.LoadsUnfollowed | LoadsElsewhere);
    if (Held)
      Ready = std::max(Ready, StoreAddressesKnown);
    uint64_t T = O.OneUnit ? bookOne(O.Uses[0], Ready) : book(O.uses(), Ready);
    if (O.MayStore)
      StoreAddressesKnown = std::max({StoreAddressesKnown, D + 1, operands(O.AddressUnits)});
    return T;
  };

  uint64_t T, Complete;
  if (!O.Unusual) {
    T = issue(std::max(D + 1, Operands));
    Complete = T + O.Latency;
    for (unsigned W = 0; W < Op::MaxWrites; ++W) {
      uint64_t At = T + O.WriteLatency[W];
      Complete = std::max(Complete, At);
      write(W, At);
    }
  } else {
    Frames::Access Access;
    const Frames::Store *Forwarding = nullptr;
    if (O.TouchesFrame) {
      Access = Memory->step(*O.Full);
      Forwarding = Access.Loads ? Memory->find(Access.Load) : nullptr;
    }
    uint64_t ForwardedAt = Forwarding ? Forwarding->Issue : 0;
    bool Eliminated = O.MovesRegister && MovesEliminatedNow < Model.movesEliminated();
    T = D;
    if (Eliminated)
      ++MovesEliminatedNow;
    else if (O.Executes)
      T = issue(std::max(D + 1, Operands), Access.LoadsElsewhere);
    if (Access.Stores) {
      // Where the profile says how soon an operation on a slot has its value: what an
      // instruction that loads a slot stores (add [rsp + 8], 1; push [rsp + 8]) comes
      // from the loaded value, plus a cycle of arithmetic unless it only moves it, and
      // a later reload of its slot waits for that, not for the issue.
      uint64_t StoredAt = T;
      if (Access.Loads && O.Executes && OperatesInProfile) {
        bool Operates = O.Full->Stack == StackEffect::None;
        uint64_t Loaded = T + LoadLatency;
        if (Forwarding)
          Loaded = std::max(Loaded, Operates ? ForwardedAt + SlotOperationCycles
                                             : forwardedValue(ForwardedAt, LoadLatency));
        StoredAt = Loaded + Operates;
      }
      Memory->stored(Access, StoredAt);
    }
    Complete = T + (Eliminated ? 0 : O.Latency);
    // When a write of Latency has its value.
    auto valueOf = [&](uint16_t Latency, bool AtDispatch) {
      uint64_t At = T + Latency;
      if (Eliminated)
        return std::max(D, Operands);
      if (AtDispatch)
        return D + 1;
      if (!O.Executes) // done at dispatch, but its value is no sooner than its inputs
        return std::max(At, Operands + Latency);
      if (Forwarding && Renames && O.Full->LoadsRegisterBytes &&
          O.Full->LoadsRegisterBytes == Forwarding->RegisterBytes)
        // The stored register's value, but not before a load's latency after dispatch
        // (FlowSimulator.h).
        return std::max(D + Latency, ForwardedAt + RenamedReloadCycles);
      if (Forwarding)
        return std::max(At, forwardedValue(ForwardedAt, Latency));
      return At;
    };
    if (!O.Irregular) {
      for (unsigned W = 0; W < O.NumWrites; ++W) {
        uint64_t At = valueOf(O.WriteLatency[W], O.AtDispatch >> W & 1);
        Complete = std::max(Complete, At);
        write(W, At);
      }
    } else { // its writes are not in the block
      const FlowInstruction &I = *O.Full;
      for (unsigned W = 0; W < I.Writes.size(); ++W) {
        const FlowWrite &Write = I.Writes[W];
        uint64_t At = valueOf(Write.Latency, Write.AtDispatch);
        Complete = std::max(Complete, At);
        for (uint16_t U : llvm::ArrayRef(I.Units).slice(Write.FirstUnit, Write.NumUnits))
          UnitValues[U] = At << 16 | Write.WriteResource;
      }
    }
  }
  for (uint8_t B : O.buffers())
    Schedulers[B].add(D, T);
  retire(O, Complete);
  return Complete;
}

LLVM_ATTRIBUTE_ALWAYS_INLINE void FlowSimulator::retire(const Op &I, uint64_t Complete) {
  // Without branches: which instructions retire in the same cycle follows no pattern.
  uint64_t Retire = std::max(LastRetire, Complete);
  // (Before the first, RetiredNow is 0: the same cycle, not full.)
  bool SameCycle = Retire == LastRetire;
  bool Full = SameCycle & (RetiredNow >= RetireLimit);
  Retire += Full;
  RetiredNow = (RetiredNow & -unsigned(SameCycle & !Full)) + 1; // no branch
  LastRetire = Retire;
  Retirements &R = *InFlight;
  R.ReorderBuffer.push({Retire, I.MicroOps});
  R.MicroOps += I.MicroOps;
  if (I.LoadQueued | I.StoreQueued) {
    R.Loads.pushIf(Retire, I.LoadQueued);
    R.Stores.pushIf(Retire, I.StoreQueued);
  }
}

llvm::Error FlowSimulator::finish() {
  ended(RetiredNow ? LastRetire + 1 : 0);
  return llvm::Error::success();
}

} // namespace mlgo
