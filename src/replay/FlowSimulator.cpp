/// \file
/// The flow engine's one pass: dispatch, issue, completion and retirement of each
/// instruction in program order, against the bookings of the instructions before it.
#include "FlowSimulator.h"
#include "support/Error.h"

#include "llvm/ADT/bit.h"

#include <algorithm>

namespace mlgo {

/// Which units of the processor resources are busy in which cycles: one bit per unit
/// and cycle over a window of cycles from the dispatch cycle on, reused as dispatch
/// moves ahead.
class FlowSimulator::Lanes {
public:
  static constexpr uint64_t Window = 1 << 16, Words = Window / 64;

  explicit Lanes(unsigned Count) : Count(Count), Bits(Words * Count) {}

  bool free(unsigned Lane, uint64_t From, unsigned Cycles) const {
    if (Cycles == 1)
      return !(word(Lane, From) >> (From & 63) & 1);
    for (uint64_t C = From; C < From + Cycles; ++C)
      if (word(Lane, C) >> (C & 63) & 1)
        return false;
    return true;
  }
  void book(unsigned Lane, uint64_t From, unsigned Cycles) {
    for (uint64_t C = From; C < From + Cycles; ++C)
      word(Lane, C) |= uint64_t(1) << (C & 63);
  }
  /// Cycles before \p Cycle will not be booked any more: their bits can serve later
  /// cycles.
  void advanceTo(uint64_t Cycle) {
    uint64_t Start = Cycle & ~uint64_t(63);
    if (Start - Cleared >= Window) {
      std::fill(Bits.begin(), Bits.end(), 0);
      Cleared = Start;
      return;
    }
    for (; Cleared < Start; Cleared += 64)
      std::fill_n(Bits.begin() + ((Cleared / 64) % Words) * Count, Count, 0);
  }
  /// Bookings must end before this cycle.
  uint64_t limit() const { return Cleared + Window; }
  /// The first cycle \p At (from its value on, before \p Until) in which one of the
  /// \p N lanes at \p Lanes is free, and which (the first in turn from \p Next); N if
  /// none.
  unsigned firstFreeLane(const uint16_t *Lanes, unsigned N, unsigned Next, uint64_t &At,
                         uint64_t Until) const {
    if (Next >= N)
      Next = 0;
    for (uint64_t C = At; C < Until; C = (C | 63) + 1) {
      uint64_t Row = (C / 64) % Words * Count, Mask = ~uint64_t(0) << (C & 63);
      uint64_t Any = 0;
      for (unsigned K = 0; K < N; ++K)
        Any |= ~Bits[Row + Lanes[K]] & Mask;
      if (!Any)
        continue;
      uint64_t Bit = llvm::countr_zero(Any);
      At = (C & ~uint64_t(63)) + Bit;
      if (At >= Until)
        break;
      for (unsigned K = Next;; K = K + 1 == N ? 0 : K + 1)
        if (!(Bits[Row + Lanes[K]] >> Bit & 1))
          return K;
    }
    return N;
  }
  /// The first cycle from \p From on, before \p Until, in which one of \p Lanes is
  /// free (else Until): 64 cycles at a time.
  uint64_t firstFree(llvm::ArrayRef<uint16_t> Lanes, uint64_t From, uint64_t Until) const {
    for (uint64_t C = From; C < Until; C = (C | 63) + 1) {
      uint64_t AllBusy = ~uint64_t(0);
      for (uint16_t Lane : Lanes)
        AllBusy &= word(Lane, C);
      uint64_t Free = ~AllBusy & (~uint64_t(0) << (C & 63));
      if (Free)
        return std::min(Until, (C & ~uint64_t(63)) + llvm::countr_zero(Free));
    }
    return Until;
  }

private:
  uint64_t &word(unsigned Lane, uint64_t Cycle) {
    return Bits[((Cycle / 64) % Words) * Count + Lane];
  }
  uint64_t word(unsigned Lane, uint64_t Cycle) const {
    return Bits[((Cycle / 64) % Words) * Count + Lane];
  }

  unsigned Count;
  std::vector<uint64_t> Bits; ///< by word of cycles, then by lane
  uint64_t Cleared = 0;       ///< the first cycle of the window
};

/// A first-in first-out queue of cycles in a ring that grows as needed.
template <typename T> class Ring {
public:
  bool empty() const { return Head == Tail; }
  size_t size() const { return Tail - Head; }
  const T &front() const { return Items[Head & (Items.size() - 1)]; }
  void pop() { ++Head; }
  void push(const T &Item) {
    if (size() == Items.size()) {
      std::vector<T> Grown(std::max<size_t>(16, Items.size() * 2));
      for (size_t I = 0; I < size(); ++I)
        Grown[I] = Items[(Head + I) & (Items.size() - 1)];
      Tail = size();
      Head = 0;
      Items = std::move(Grown);
    }
    Items[Tail++ & (Items.size() - 1)] = Item;
  }

private:
  std::vector<T> Items;
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
    if (Cycle - Through >= Window) {
      std::fill(Leaving.begin(), Leaving.end(), 0);
      Waiting = 0;
    } else {
      for (uint64_t C = Through + 1; C <= Cycle && Waiting; ++C) {
        Waiting -= Leaving[C % Window];
        Leaving[C % Window] = 0;
      }
    }
    Through = std::max(Through, Cycle);
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
/// Recently described instructions kept by each core (2^bits).
constexpr unsigned RecentBits = 14;
/// The longest search for free resources, and the longest booking, in cycles.
constexpr uint64_t MaxSearch = 4096, MaxBooking = 1024;
} // namespace

FlowSimulator::FlowSimulator(const FlowModel &Model, uint32_t NumFunctions)
    : CoreSimulator(NumFunctions), Model(Model), RecentlyDescribed(size_t(1) << RecentBits),
      InFlight(std::make_unique<Retirements>()), Schedulers(Model.buffers().size()),
      Busy(std::make_unique<Lanes>(Model.numLanes())),
      UnitReady(Model.numRegisterUnits(), 0), UnitWriter(Model.numRegisterUnits(), 0),
      NextLane(Model.numResources(), 0), Memory(std::make_unique<Frames>()) {}

FlowSimulator::~FlowSimulator() = default;

llvm::Expected<const FlowInstruction *> FlowSimulator::describe(const llvm::MCInst &Inst) {
  uint64_t Key = reinterpret_cast<uintptr_t>(&Inst) * 0x9E3779B97F4A7C15ull;
  Recent &R = RecentlyDescribed[Key >> (64 - RecentBits)];
  // An address can hold another instruction later (decoded code is not the only source
  // of instructions a core sees), so a hit is checked against what was described.
  if (R.Inst == &Inst && sameInstruction(R.Description->Instruction, Inst))
    return R.Description;
  auto D = Model.describe(Inst);
  if (!D)
    return D.takeError();
  R = {&Inst, *D};
  return *D;
}

llvm::Error FlowSimulator::add(const RefilledCode &Code) {
  // Events in between were not handed over (unmapped code left out): the frame
  // registers may have moved meanwhile.
  if (Code.Event != LastEvent + 1)
    Memory->forget();
  LastEvent = Code.Event;
  for (size_t K = 0; K < Code.Instructions.size(); ++K) {
    auto D = describe(Code.Instructions[K]);
    if (!D)
      return stageError("the flow engine cannot time the instruction at {:#x}: {}",
                        Code.Addresses[K], llvm::toString(D.takeError()));
    time(**D, Code);
  }
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
    uint16_t Lane, Cycles;
  };
  Chosen Picks[64];
  // Resources that stay busy for thousands of cycles do not exist; a search that long
  // gives up and books nothing, rather than running on.
  uint64_t GiveUp = std::min(Ready + MaxSearch, Busy->limit() - MaxBooking);
  if (I.Resources.size() == 1 && !I.Resources[0].Reserved && I.Resources[0].Cycles == 1) {
    // Most instructions use one resource for a cycle: the first cycle in which one of
    // its units is free, and the first such unit in turn.
    const FlowResourceUse &U = I.Resources[0];
    unsigned N = U.Lanes.size();
    uint64_t T = Ready;
    uint16_t Lane = Busy->firstFreeLane(U.Lanes.data(), N, NextLane[U.Resource], T, GiveUp);
    if (Lane == N)
      return Ready;
    Busy->book(U.Lanes[Lane], T, 1);
    NextLane[U.Resource] = static_cast<uint8_t>(Lane + 1 == N ? 0 : Lane + 1);
    return T;
  }
  for (uint64_t T = Ready; T < GiveUp;) {
    unsigned Count = 0;
    auto taken = [&](uint16_t Lane) {
      for (unsigned K = 0; K < Count; ++K)
        if (Picks[K].Lane == Lane)
          return true;
      return false;
    };
    // A resource without a free unit at T: the next cycle in which it has one.
    uint64_t Retry = 0;
    for (const FlowResourceUse &U : I.Resources) {
      llvm::ArrayRef<uint16_t> Lanes = U.Lanes;
      if (U.Reserved) {
        // The whole group, but for the units this instruction holds already.
        unsigned Held = Count;
        for (uint16_t Lane : Lanes) {
          bool Own = false;
          for (unsigned K = 0; K < Held; ++K)
            Own |= Picks[K].Lane == Lane;
          if (Own)
            continue;
          if (!Busy->free(Lane, T, U.Cycles) || Count == 64) {
            Retry = T + 1;
            break;
          }
          Picks[Count++] = {Lane, U.Cycles};
        }
      } else {
        // Units of a group take turns, as MCA's resource selection does.
        unsigned N = Lanes.size(), Next = NextLane[U.Resource];
        bool Found = false;
        for (unsigned K = 0; K < N && Count < 64; ++K) {
          unsigned At = Next < N ? Next : 0;
          Next = At + 1 == N ? 0 : At + 1;
          uint16_t Lane = Lanes[At];
          if (!taken(Lane) && Busy->free(Lane, T, U.Cycles)) {
            Picks[Count++] = {Lane, U.Cycles};
            NextLane[U.Resource] = static_cast<uint8_t>(Next);
            Found = true;
            break;
          }
        }
        if (!Found)
          Retry = std::max(T + 1, Busy->firstFree(Lanes, T + 1, GiveUp));
      }
      if (Retry)
        break;
    }
    if (!Retry) {
      for (unsigned K = 0; K < Count; ++K)
        Busy->book(Picks[K].Lane, T, Picks[K].Cycles);
      return T;
    }
    T = Retry;
  }
  return Ready;
}

void FlowSimulator::time(const FlowInstruction &I, const RefilledCode &Code) {
  uint64_t D = dispatch(I);
  Busy->advanceTo(D);

  uint64_t Operands = 0;
  for (const FlowRead &R : I.Reads) {
    if (R.Independent)
      continue;
    for (uint16_t U : llvm::ArrayRef(I.Units).slice(R.FirstUnit, R.NumUnits)) {
      uint64_t At = UnitReady[U];
      if (R.Advances) {
        int64_t Advance = Model.readAdvance(R, UnitWriter[U]);
        At = Advance > 0 ? At - std::min<uint64_t>(At, Advance) : At - Advance;
      }
      Operands = std::max(Operands, At);
    }
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
  // Retirement happens within cycle Retire, so Retire + 1 cycles have passed.
  retired(Code.Function, Code.Event, Retire + 1);
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
