/// \file
/// The flow engine's one pass: dispatch, issue, completion and retirement of each
/// instruction in program order, against the bookings of the instructions before it.
#include "FlowSimulator.h"
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
    for (unsigned C = 1; C < Cycles && Free; ++C)
      Free &= ~busy(From + C);
    return Free;
  }
  void book(uint64_t Taken, uint64_t From, unsigned Cycles) {
    for (uint64_t C = From; C < From + Cycles; ++C)
      Busy[C & (Window - 1)] |= Taken;
  }
  /// Cycles before \p Cycle will not be booked any more: their masks can serve later
  /// cycles.
  void advanceTo(uint64_t Cycle) {
    if (Cycle <= Cleared)
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
    Issue = std::min(Issue, Dispatched + Window - 1);
    if (Issue <= Through)
      return;
    ++Leaving[Issue % Window];
    ++Waiting;
  }
  unsigned waiting() const { return Waiting; }

private:
  std::vector<uint16_t> Leaving; ///< at most a scheduler's size each
  uint64_t Through = 0;
  unsigned Waiting = 0;
};

/// What holds dispatched instructions until they retire: the reorder buffer (by
/// micro-ops) and the load and store queues.
struct FlowSimulator::Retirements {
  /// Every instruction in flight holds an entry, at least one micro-op, so the reorder
  /// buffer's size bounds each ring (one more: an instruction wider than the buffer).
  explicit Retirements(unsigned ReorderBufferSize)
      : ReorderBuffer(ReorderBufferSize + 1), Loads(ReorderBufferSize + 1),
        Stores(ReorderBufferSize + 1) {}
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
/// address.
class FlowSimulator::Frames {
public:
  struct Value {
    uint32_t Symbol = 0;
    int64_t Offset = 0;
    bool operator==(const Value &O) const { return Symbol == O.Symbol && Offset == O.Offset; }
  };
  struct Store {
    Value Address;
    uint64_t Issue = 0;
    /// A pushed frame register's value (push rbp), for the pop that restores it.
    bool HoldsPointer = false;
    Value Pointer;
  };
  struct Access {
    bool Loads = false, Stores = false;
    Value Load, Store;
    bool StoresPointer = false;
    Value Pointer;
  };

  Frames() : Slots(TableSize) { forget(); }

  /// Earlier stores and frame values no longer apply (code between was not seen).
  void forget() {
    Pointers[StackPointer] = fresh();
    Pointers[FramePointerReg] = fresh();
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
    if (I.Stack == StackEffect::Pop || I.Stack == StackEffect::Leave) {
      Stack.Offset += I.StackBytes;
      if (I.PopsFrame != NoPointer) {
        const Store *S = find(A.Load);
        Pointers[I.PopsFrame] = S && S->HoldsPointer ? S->Pointer : fresh();
      }
    }
    if (I.MovesFrameTo != NoPointer)
      Pointers[I.MovesFrameTo] = at(I.MovesFrameFrom, I.MovesFrameBy);
    for (int8_t F : {StackPointer, FramePointerReg})
      if (I.ClobbersFrame >> F & 1)
        Pointers[F] = fresh();
    return A;
  }

  const Store *find(const Value &Address) const {
    const Store &S = Slots[slot(Address)];
    return S.Issue && S.Address == Address ? &S : nullptr;
  }
  void stored(const Access &A, uint64_t Issue) {
    Slots[slot(A.Store)] = {A.Store, Issue, A.StoresPointer, A.Pointer};
  }

private:
  /// Stores remembered: the last ones, by address, as a direct-mapped table.
  static constexpr size_t TableSize = 4096;

  Value fresh() { return {++Symbols, 0}; }
  Value at(int8_t Pointer, int64_t Offset) const {
    return {Pointers[Pointer].Symbol, Pointers[Pointer].Offset + Offset};
  }
  static size_t slot(const Value &V) {
    uint64_t H = (uint64_t(V.Symbol) << 32 ^ uint64_t(V.Offset)) * 0x9E3779B97F4A7C15ull;
    return H >> 52; // 12 bits: TableSize
  }

  Value Pointers[2];
  uint32_t Symbols = 0;
  std::vector<Store> Slots;
};

namespace {
/// The longest search for free resources, and the longest booking, in cycles.
constexpr uint64_t MaxSearch = 4096, MaxBooking = 1024;
} // namespace

FlowSimulator::FlowSimulator(const FlowModel &Model, uint32_t NumFunctions)
    : CoreSimulator(NumFunctions), Model(Model),
      InFlight(std::make_unique<Retirements>(Model.reorderBuffer())),
      Schedulers(Model.buffers().size()), Busy(std::make_unique<Lanes>()),
      UnitReady(Model.numRegisterUnits(), 0), UnitWriter(Model.numRegisterUnits(), 0),
      NextLane(Model.numResources(), 0), Memory(std::make_unique<Frames>()) {}

FlowSimulator::~FlowSimulator() = default;

llvm::Expected<llvm::ArrayRef<const FlowInstruction *>>
FlowSimulator::describe(const RefilledCode &Code) {
  // Refilled code stays where it is and as it is for a core's life (Refill.h): the
  // descriptions of an event's instructions are found by where they start.
  Described &Found = DescribedByCode[Code.Instructions.data()];
  if (Found.Count < Code.Instructions.size()) {
    Found = {static_cast<uint32_t>(Descriptions.size()),
             static_cast<uint32_t>(Code.Instructions.size())};
    for (size_t K = 0; K < Code.Instructions.size(); ++K) {
      auto D = Model.describe(Code.Instructions[K]);
      if (!D)
        return stageError("the flow engine cannot time the instruction at {:#x}: {}",
                          Code.Addresses[K], llvm::toString(D.takeError()));
      Descriptions.push_back(*D);
    }
  }
  assert(llvm::all_of(llvm::seq<size_t>(0, Code.Instructions.size()), [&](size_t K) {
    return sameInstruction(Descriptions[Found.First + K]->Instruction,
                           Code.Instructions[K]);
  }));
  return llvm::ArrayRef(Descriptions).slice(Found.First, Code.Instructions.size());
}

llvm::Error FlowSimulator::add(const RefilledCode &Code) {
  // Events in between were not handed over (unmapped code left out): the frame
  // registers may have moved meanwhile.
  if (Code.Event != LastEvent + 1)
    Memory->forget();
  LastEvent = Code.Event;
  if (Code.Instructions.empty())
    return llvm::Error::success();
  auto Descriptions = describe(Code);
  if (!Descriptions)
    return Descriptions.takeError();
  // Retirement happens within cycle LastRetire, so LastRetire + 1 cycles have passed.
  // An event's instructions retire together unless each one's cycles are asked for.
  bool OneByOne = recordsInstructionCycles();
  for (const FlowInstruction *I : *Descriptions) {
    time(*I);
    if (OneByOne)
      retired(Code.Function, Code.Event, LastRetire + 1);
  }
  if (!OneByOne)
    retired(Code.Function, Code.Event, LastRetire + 1, Code.Instructions.size());
  return llvm::Error::success();
}

uint64_t FlowSimulator::dispatch(const FlowInstruction &I) {
  unsigned Width = Model.dispatchWidth();
  unsigned MicroOps = std::max<unsigned>(1, I.MicroOps);
  auto waitUntil = [&](uint64_t Cycle) {
    if (Cycle > DispatchCycle) {
      DispatchCycle = Cycle;
      SlotsUsed = MovesEliminatedNow = 0;
    }
  };
  if (GroupEnded || (I.BeginGroup && SlotsUsed) ||
      SlotsUsed + std::min(MicroOps, Width) > Width)
    waitUntil(DispatchCycle + 1);
  GroupEnded = I.EndGroup;

  // An entry retired in cycle R is free from R + 1 on.
  Retirements &R = *InFlight;
  auto &Rob = R.ReorderBuffer;
  while (!Rob.empty() && Rob.front().Retire < DispatchCycle) {
    R.MicroOps -= Rob.front().MicroOps;
    Rob.pop();
  }
  while (!Rob.empty() && R.MicroOps + MicroOps > Model.reorderBuffer()) {
    waitUntil(Rob.front().Retire + 1);
    R.MicroOps -= Rob.front().MicroOps;
    Rob.pop();
  }
  auto queue = [&](Ring<uint64_t> &Queue, unsigned Size) {
    while (!Queue.empty() && Queue.front() < DispatchCycle)
      Queue.pop();
    if (Size && Queue.size() >= Size) {
      waitUntil(Queue.front() + 1);
      Queue.pop();
    }
  };
  if (I.MayLoad)
    queue(R.Loads, Model.loadQueue());
  if (I.MayStore)
    queue(R.Stores, Model.storeQueue());
  // A scheduler entry is free from its instruction's issue cycle on.
  for (uint8_t B : I.Buffers) {
    Scheduler &S = Schedulers[B];
    S.advanceTo(DispatchCycle);
    while (S.waiting() >= Model.buffers()[B]) {
      waitUntil(S.nextLeaving());
      S.advanceTo(DispatchCycle);
    }
  }

  uint64_t Dispatched = DispatchCycle;
  // Wider than the dispatch width: whole cycles, and the rest of the last one.
  DispatchCycle += (MicroOps - 1) / Width;
  SlotsUsed += (MicroOps - 1) % Width + 1;
  return Dispatched;
}

uint64_t FlowSimulator::book(const FlowInstruction &I, uint64_t Ready) {
  struct Chosen {
    uint64_t Lanes;
    unsigned Cycles;
  };
  Chosen Picks[MaxResources];
  unsigned NumPicks = I.Resources.size();
  // Resources that stay busy for thousands of cycles do not exist; a search that long
  // gives up and books nothing, rather than running on.
  uint64_t GiveUp = std::min(Ready + MaxSearch, Busy->limit() - MaxBooking);
  uint64_t T = Ready, Taken = 0;
  for (unsigned K = 0; K < NumPicks;) {
    const FlowResourceUse &U = I.Resources[K];
    uint64_t Wanted = U.Lanes & ~Taken; // a unit this instruction holds is not free
    uint64_t Free = Busy->freeOf(Wanted, T, U.Cycles);
    if (U.Reserved ? Free == Wanted : Free != 0) {
      uint64_t Pick = Wanted; // a reserved group: all of it, but for units held
      if (!U.Reserved) {
        // Units of a group take turns, as MCA's resource selection does: the first
        // free one from where the previous choice left off.
        uint64_t After = Free & (~uint64_t(0) << NextLane[U.Resource]);
        Pick = After ? After & -After : Free & -Free;
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
    if (!I.Resources[K].Reserved)
      NextLane[I.Resources[K].Resource] =
          static_cast<uint8_t>((llvm::countr_zero(Picks[K].Lanes) + 1) & 63);
  }
  return T;
}

void FlowSimulator::time(const FlowInstruction &I) {
  uint64_t D = dispatch(I);
  Busy->advanceTo(D);

  uint64_t Operands = 0;
  for (uint16_t U : I.ReadUnits)
    Operands = std::max(Operands, UnitReady[U]);
  for (const FlowRead &R : I.AdvancedReads)
    for (uint16_t U : llvm::ArrayRef(I.Units).slice(R.FirstUnit, R.NumUnits)) {
      uint64_t At = UnitReady[U];
      int64_t Advance = Model.readAdvance(R, UnitWriter[U]);
      At = Advance > 0 ? At - std::min<uint64_t>(At, Advance) : At - Advance;
      Operands = std::max(Operands, At);
    }
  Frames::Access Access = I.TouchesFrame ? Memory->step(I) : Frames::Access();
  const Frames::Store *Forwarding = Access.Loads ? Memory->find(Access.Load) : nullptr;
  uint64_t ForwardedAt = Forwarding ? Forwarding->Issue : 0;

  bool Eliminated = I.MovesRegister && MovesEliminatedNow < Model.movesEliminated();
  uint64_t T = D;
  if (Eliminated) {
    ++MovesEliminatedNow;
  } else if (I.Executes) {
    uint64_t Ready = std::max(D + 1, Operands);
    if (I.MayStore)
      Ready = std::max(Ready, LastStoreIssue);
    T = I.Resources.empty() ? Ready : book(I, Ready);
    if (I.MayStore)
      LastStoreIssue = T;
  }
  if (Access.Stores)
    Memory->stored(Access, T);

  uint64_t Complete = T + (Eliminated ? 0 : I.Latency);
  for (const FlowWrite &W : I.Writes) {
    uint64_t At = T + W.Latency;
    if (Eliminated)
      At = std::max(D, Operands);
    else if (W.AtDispatch)
      At = D + 1;
    else if (!I.Executes) // done at dispatch, but its value is no sooner than its inputs
      At = std::max(At, Operands + W.Latency);
    else if (Forwarding)
      At = std::max(At, ForwardedAt + W.Latency);
    Complete = std::max(Complete, At);
    for (uint16_t U : llvm::ArrayRef(I.Units).slice(W.FirstUnit, W.NumUnits)) {
      UnitReady[U] = At;
      UnitWriter[U] = W.WriteResource;
    }
  }
  for (uint8_t B : I.Buffers)
    Schedulers[B].add(D, T);

  uint64_t Retire = std::max(LastRetire, Complete);
  if (AnyRetired && Retire == LastRetire) {
    if (Model.retireWidth() && RetiredNow >= Model.retireWidth()) {
      ++Retire;
      RetiredNow = 0;
    }
  } else {
    RetiredNow = 0;
  }
  ++RetiredNow;
  LastRetire = Retire;
  AnyRetired = true;
  Retirements &R = *InFlight;
  unsigned MicroOps = std::max<unsigned>(1, I.MicroOps);
  R.ReorderBuffer.push({Retire, MicroOps});
  R.MicroOps += MicroOps;
  if (I.MayLoad)
    R.Loads.push(Retire);
  if (I.MayStore)
    R.Stores.push(Retire);
}

llvm::Error FlowSimulator::finish() {
  ended(AnyRetired ? LastRetire + 1 : 0);
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<Engine>>
FlowEngine::create(std::unique_ptr<McaTarget> Target) {
  auto Model = FlowModel::create(*Target);
  if (!Model)
    return Model.takeError();
  std::unique_ptr<FlowEngine> E(new FlowEngine(std::move(Target)));
  E->Model = std::move(*Model);
  return E;
}

} // namespace mlgo
