/// \file
/// The flow engine's one pass: dispatch, issue, completion and retirement of each
/// instruction in program order, against the bookings of the instructions before it.
#include "replay/flow/FlowSimulator.h"
#include "support/Error.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/bit.h"

#include <algorithm>
#include <cassert>

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
  /// MaxSearch + MaxBooking cycles ahead, well within the rest).
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

/// A first-in first-out queue of at most Capacity items (a power of two), in a ring.
template <typename T> class Ring {
public:
  explicit Ring(size_t Capacity)
      : Items(llvm::PowerOf2Ceil(Capacity)), Mask(Items.size() - 1) {}
  bool empty() const { return Head == Tail; }
  size_t size() const { return Tail - Head; }
  const T &front() const { return Items[Head & Mask]; }
  void pop() { ++Head; }
  void push(const T &Item) {
    assert(size() < Items.size() && "a ring holds at most its capacity");
    Items[Tail++ & Mask] = Item;
  }
  /// push(Item) if \p Really, without a branch: the slot after the last is free.
  void pushIf(const T &Item, bool Really) {
    assert(size() < Items.size() && "a ring holds at most its capacity");
    Items[Tail & Mask] = Item;
    Tail += Really;
  }

private:
  std::vector<T> Items;
  size_t Mask;
  size_t Head = 0, Tail = 0;
};

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

/// What holds dispatched instructions until they retire: the reorder buffer (by
/// micro-ops) and the load and store queues.
struct FlowSimulator::Retirements {
  /// Every instruction in flight holds an entry, at least one micro-op, so the reorder
  /// buffer's size bounds its ring (one more: an instruction wider than the buffer); a
  /// queue holds at most its size (unbounded queues are not kept).
  Retirements(unsigned ReorderBufferSize, unsigned LoadQueue, unsigned StoreQueue)
      : ReorderBuffer(ReorderBufferSize + 1), Loads(LoadQueue + 1), Stores(StoreQueue + 1) {}
  struct Entry {
    uint64_t Retire;
    unsigned MicroOps;
  };
  Ring<Entry> ReorderBuffer;
  unsigned MicroOps = 0;
  Ring<uint64_t> Loads, Stores;
};

/// The frame registers' values and the stack slots stores wrote, for forwarding. A
/// value is a symbol plus an offset: a symbol stands for a value the engine does not
/// know (a new one each time a frame register is written otherwise), and push, pop,
/// add, sub, lea and mov move the offset. The same symbol and offset is the same
/// address. A value also says whether it points into the stack: the frame pointer
/// register written otherwise (code built without frame pointers uses rbp as any other
/// register) holds some other address, and a load through it waits for older stores'
/// addresses as any load the frames do not follow.
class FlowSimulator::Frames {
public:
  struct Value {
    uint32_t Symbol = 0;
    int64_t Offset = 0;
    bool Stack = true;
    bool operator==(const Value &O) const { return Symbol == O.Symbol && Offset == O.Offset; }
  };
  struct Store {
    Value Address;
    uint64_t Issue = 0;
    /// A pushed frame register's value (push rbp), for the pop that restores it.
    bool HoldsPointer = false;
    Value Pointer;
    /// A whole register stored (FlowInstruction::StoresRegisterBytes): its bytes.
    uint8_t RegisterBytes = 0;
  };
  struct Access {
    bool Loads = false, Stores = false;
    /// A load (not a store too) through a frame register that does not point into the
    /// stack.
    bool LoadsElsewhere = false;
    Value Load, Store;
    bool StoresPointer = false;
    Value Pointer;
    uint8_t StoresRegisterBytes = 0;
  };

  Frames() : Slots(TableSize) { forget(); }

  /// Earlier stores and frame values no longer apply (code between was not seen).
  void forget() {
    Pointers[StackPointer] = fresh(true);
    Pointers[FramePointerReg] = fresh(true); // a frame pointer, as far as is known
  }

  /// Where \p I loads and stores, and its changes to the frame registers.
  Access step(const FlowInstruction &I) {
    Access A;
    Value &Stack = Pointers[StackPointer];
    if (I.Stack == StackEffect::Leave)
      Stack = Pointers[FramePointerReg];
    if (I.Stack == StackEffect::Pop || I.Stack == StackEffect::Leave) {
      A.Loads = true;
      A.Load = Stack;
    } else if (I.Slot != NoPointer && I.MayLoad) {
      A.Loads = true;
      A.Load = at(I.Slot, I.SlotOffset);
      A.LoadsElsewhere = !A.Load.Stack && !I.MayStore;
    }
    if (I.Stack == StackEffect::Push) {
      Stack.Offset -= I.StackBytes;
      A.Stores = true;
      A.Store = Stack;
      if (I.PushesFrame != NoPointer) {
        A.StoresPointer = true;
        A.Pointer = Pointers[I.PushesFrame];
      }
    } else if (I.Slot != NoPointer && I.MayStore) {
      A.Stores = true;
      A.Store = at(I.Slot, I.SlotOffset);
    }
    A.StoresRegisterBytes = I.StoresRegisterBytes;
    if (I.Stack == StackEffect::Pop || I.Stack == StackEffect::Leave) {
      Stack.Offset += I.StackBytes;
      if (I.PopsFrame != NoPointer) {
        const Store *S = find(A.Load);
        Pointers[I.PopsFrame] = S && S->HoldsPointer ? S->Pointer : fresh(true);
      }
    }
    if (I.MovesFrameTo != NoPointer)
      Pointers[I.MovesFrameTo] = at(I.MovesFrameFrom, I.MovesFrameBy);
    for (int8_t F : {StackPointer, FramePointerReg})
      if (I.ClobbersFrame >> F & 1)
        Pointers[F] = fresh(F == StackPointer);
    return A;
  }

  const Store *find(const Value &Address) const {
    const Store &S = Slots[slot(Address)];
    return S.Issue && S.Address == Address ? &S : nullptr;
  }
  void stored(const Access &A, uint64_t Issue) {
    Slots[slot(A.Store)] = {A.Store, Issue, A.StoresPointer, A.Pointer, A.StoresRegisterBytes};
  }

private:
  /// Stores remembered: the last ones, by address, as a direct-mapped table.
  static constexpr size_t TableSize = 4096;

  Value fresh(bool Stack) { return {++Symbols, 0, Stack}; }
  Value at(int8_t Pointer, int64_t Offset) const {
    const Value &P = Pointers[Pointer];
    return {P.Symbol, P.Offset + Offset, P.Stack};
  }
  static size_t slot(const Value &V) {
    uint64_t H = (uint64_t(V.Symbol) << 32 ^ uint64_t(V.Offset)) * 0x9E3779B97F4A7C15ull;
    return H >> 52; // 12 bits: TableSize
  }

  Value Pointers[2];
  uint32_t Symbols = 0;
  std::vector<Store> Slots;
};

/// An instruction as the inner loop reads it, one small block per instruction of an
/// event, side by side: its reads padded to MaxReads units with a unit never written,
/// its writes padded to MaxWrites of WriteUnitsOf units with a unit never read, so
/// that they take no branch per operand. What does not fit (more read units, more
/// resource uses, and Irregular: more writes or units, or schedulers) is read from
/// the instruction's FlowInstruction.
struct FlowSimulator::Op {
  static constexpr unsigned MaxReads = 6, MaxWrites = 2, MaxUses = 4;
  /// Units per write: most instructions write a general register (three units) and
  /// the flags (one).
  static constexpr unsigned WriteUnitsOf[MaxWrites] = {4, 1};
  static constexpr unsigned firstWriteUnit(unsigned W) { return W ? WriteUnitsOf[0] : 0; }
  uint16_t ReadUnits[MaxReads];
  /// A memory operand's base and index (at most two registers of a few units each).
  static constexpr unsigned MaxAddressUnits = 8;
  uint16_t AddressUnits[MaxAddressUnits];
  uint16_t WriteUnits[WriteUnitsOf[0] + WriteUnitsOf[1]]; ///< write 0's, then write 1's
  uint16_t WriteLatency[MaxWrites] = {};
  uint16_t WriteResource[MaxWrites] = {};
  FlowResourceUse Uses[MaxUses];
  uint16_t MicroOps; ///< at least one
  /// Dispatch slots in the first cycle, whole cycles after it and slots in the last.
  uint16_t FirstSlots, WholeCycles, LastSlots;
  uint16_t Latency;
  uint8_t Buffer, NumUses;
  bool Branches;
  bool MayLoad, MayStore, BeginGroup, EndGroup;
  /// A load that a bounded load queue holds; a store that a bounded store queue holds.
  bool LoadQueued, StoreQueued;
  /// A load (not a store too) from an address the frames do not follow: it waits for
  /// older stores' addresses.
  bool LoadsUnfollowed;
  /// A data load whose waiting the trace's load dependences decide (LoadsUnfollowed),
  /// wherever its address points.
  bool DependenceKnown = false;
  bool Irregular;
  /// Read units beyond MaxReads, or reads with advances: read from Full.
  bool MoreReads;
  /// Uses one unit of one resource.
  bool OneUnit;
  /// Anything of: irregular, not executing, a register move, the frame, a stack
  /// pointer write at dispatch.
  bool Unusual = true;
  bool Executes, MovesRegister, TouchesFrame;
  const FlowInstruction *Full;

  Op(const FlowInstruction &I, const FlowModel &Model, uint8_t Unbuffered)
      : Full(&I) {
    auto NeverWritten = static_cast<uint16_t>(Model.numRegisterUnits());
    auto NeverRead = static_cast<uint16_t>(NeverWritten + 1);
    MicroOps = std::max<uint16_t>(1, I.MicroOps);
    Latency = I.Latency;
    MayLoad = I.MayLoad;
    MayStore = I.MayStore;
    LoadQueued = MayLoad && Model.loadQueue();
    StoreQueued = MayStore && Model.storeQueue();
    BeginGroup = I.BeginGroup;
    EndGroup = I.EndGroup;
    Executes = I.Executes;
    MovesRegister = I.MovesRegister;
    TouchesFrame = I.TouchesFrame;
    Branches = I.Branches;
    // Instructions without a scheduler count in one that is never full.
    Buffer = I.Buffers.empty() ? Unbuffered : I.Buffers[0];
    unsigned Width = Model.dispatchWidth();
    FirstSlots = static_cast<uint16_t>(std::min<unsigned>(MicroOps, Width));
    WholeCycles = static_cast<uint16_t>((MicroOps - 1) / Width);
    LastSlots = static_cast<uint16_t>((MicroOps - 1) % Width + 1);
    NumUses = static_cast<uint8_t>(I.Resources.size());
    Irregular = I.Writes.size() > MaxWrites || I.Buffers.size() > 1;
    for (unsigned W = 0; W < I.Writes.size() && W < MaxWrites; ++W)
      Irregular |= I.Writes[W].NumUnits > WriteUnitsOf[W];
    MoreReads = I.ReadUnits.size() > MaxReads || !I.AdvancedReads.empty();
    OneUnit = I.Resources.size() == 1 && !I.Resources[0].Reserved;
    std::fill(std::begin(ReadUnits), std::end(ReadUnits), NeverWritten);
    llvm::copy(llvm::ArrayRef(I.ReadUnits).take_front(MaxReads), ReadUnits);
    std::fill(std::begin(AddressUnits), std::end(AddressUnits), NeverWritten);
    llvm::copy(llvm::ArrayRef(I.AddressUnits).take_front(MaxAddressUnits), AddressUnits);
    LoadsUnfollowed = I.MayLoad && !I.MayStore && I.Slot == NoPointer &&
                      I.Stack == StackEffect::None;
    if (NumUses <= MaxUses)
      llvm::copy(I.Resources, Uses);
    if (Irregular)
      return;
    std::fill(std::begin(WriteUnits), std::end(WriteUnits), NeverRead);
    for (unsigned W = 0; W < I.Writes.size(); ++W) {
      const FlowWrite &Write = I.Writes[W];
      llvm::copy(llvm::ArrayRef(I.Units).slice(Write.FirstUnit, Write.NumUnits),
                 WriteUnits + firstWriteUnit(W));
      WriteLatency[W] = Write.Latency;
      WriteResource[W] = Write.WriteResource;
    }
    Unusual = !Executes || MovesRegister || TouchesFrame ||
              llvm::any_of(I.Writes, [](const FlowWrite &W) { return W.AtDispatch; });
  }
  llvm::ArrayRef<FlowResourceUse> uses() const {
    return NumUses > MaxUses ? llvm::ArrayRef(Full->Resources)
                             : llvm::ArrayRef(Uses, NumUses);
  }
};

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
      MispredictPenalty(Model.mispredictPenalty()),
      Renames(Model.profile().RenamedReloadCycles.has_value()),
      RenamedReloadCycles(Model.profile().RenamedReloadCycles.value_or(0)),
      InFlight(std::make_unique<Retirements>(Model.reorderBuffer(), Model.loadQueue(),
                                             Model.storeQueue())),
      Schedulers(Model.buffers().size() + 1),
      SchedulerSizes(Model.buffers().begin(), Model.buffers().end()),
      LoadQueueLimit(Model.loadQueue()), StoreQueueLimit(Model.storeQueue()),
      Busy(std::make_unique<Lanes>()),
      UnitValues(Model.numRegisterUnits() + 2, 0),
      NextLane(Model.numResources(), 0), Memory(std::make_unique<Frames>()) {
  SchedulerSizes.push_back(~0u);
}

FlowSimulator::~FlowSimulator() = default;

llvm::Expected<llvm::ArrayRef<FlowSimulator::Op>>
FlowSimulator::describe(const RefilledCode &Code) {
  // Refilled code stays where it is and as it is for a core's life (Refill.h): the
  // descriptions of an event's instructions are found by where they start.
  Described &Found = DescribedByCode[Code.Instructions.data()];
  if (Found.Count < Code.Instructions.size()) {
    Found = {static_cast<uint32_t>(Ops.size()), static_cast<uint32_t>(Code.Instructions.size())};
    for (size_t K = 0; K < Code.Instructions.size(); ++K) {
      auto D = Model.describe(Code.Instructions[K]);
      if (!D)
        return stageError("the flow engine cannot time the instruction at {:#x}: {}",
                          Code.Addresses[K], llvm::toString(D.takeError()));
      Ops.emplace_back(**D, Model, static_cast<uint8_t>(Model.buffers().size()));
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
  if (Found.Code != Code.Instructions.data() || Found.Count != Code.Instructions.size())
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
  for (const Op &O : Described) {
    uint64_t Complete = time(O);
    // Without a branch: a transfer ends a segment, or comes just before its last jump.
    BranchResolved = O.Branches ? Complete : BranchResolved;
    if (OneByOne)
      retired(Code.Function, Code.Event, LastRetire + 1);
  }
  if (!OneByOne)
    retired(Code.Function, Code.Event, LastRetire + 1, Code.Instructions.size());
  return llvm::Error::success();
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
    if (S.waiting() < SchedulerSizes[B] && !S.lagsBehind(DispatchCycle))
      return;
    S.advanceTo(DispatchCycle);
    while (S.waiting() >= SchedulerSizes[B]) {
      waitUntil(S.nextLeaving());
      S.advanceTo(DispatchCycle);
    }
  };
  if (!I.Irregular)
    fit(I.Buffer);
  else
    llvm::for_each(I.Full->Buffers, fit);

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
    if (O.LoadsUnfollowed | (LoadsElsewhere & !O.DependenceKnown))
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
    Frames::Access Access = O.TouchesFrame ? Memory->step(*O.Full) : Frames::Access();
    const Frames::Store *Forwarding = Access.Loads ? Memory->find(Access.Load) : nullptr;
    uint64_t ForwardedAt = Forwarding ? Forwarding->Issue : 0;
    bool Eliminated = O.MovesRegister && MovesEliminatedNow < Model.movesEliminated();
    T = D;
    if (Eliminated)
      ++MovesEliminatedNow;
    else if (O.Executes)
      T = issue(std::max(D + 1, Operands), Access.LoadsElsewhere);
    if (Access.Stores)
      Memory->stored(Access, T);
    Complete = T + (Eliminated ? 0 : O.Latency);
    const FlowInstruction &I = *O.Full;
    for (unsigned W = 0; W < I.Writes.size(); ++W) {
      const FlowWrite &Write = I.Writes[W];
      uint64_t At = T + Write.Latency;
      if (Eliminated)
        At = std::max(D, Operands);
      else if (Write.AtDispatch)
        At = D + 1;
      else if (!O.Executes) // done at dispatch, but its value is no sooner than its inputs
        At = std::max(At, Operands + Write.Latency);
      else if (Forwarding && Renames && I.LoadsRegisterBytes &&
               I.LoadsRegisterBytes == Forwarding->RegisterBytes)
        At = std::max(D, ForwardedAt + RenamedReloadCycles); // the stored register's value
      else if (Forwarding)
        At = std::max(At, ForwardedAt + Write.Latency + ForwardingCycles);
      Complete = std::max(Complete, At);
      if (O.Irregular) // its writes are not in the block
        for (uint16_t U : llvm::ArrayRef(I.Units).slice(Write.FirstUnit, Write.NumUnits))
          UnitValues[U] = At << 16 | Write.WriteResource;
      else
        write(W, At);
    }
  }
  if (!O.Irregular)
    Schedulers[O.Buffer].add(D, T);
  else
    for (uint8_t B : O.Full->Buffers)
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
