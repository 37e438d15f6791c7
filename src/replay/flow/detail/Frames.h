/// \file
/// The stack and frame pointers' values and the stack slots written, which the flow
/// engine follows to forward a store to the load that reads it.
#pragma once

#include "replay/flow/FlowInstruction.h"
#include "replay/flow/FlowSimulator.h"

#include <cstdint>
#include <vector>

namespace mlgo {

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
  // Small (16 bytes), as every instruction that touches the frame makes some.
  struct Value {
    uint32_t Symbol = 0;
    bool Stack = true;
    int64_t Offset = 0;
    bool operator==(const Value &O) const { return Symbol == O.Symbol && Offset == O.Offset; }
  };
  struct Store {
    Value Address;
    uint64_t Issue = 0;
    /// A pushed frame register's value (push rbp), for the pop that restores it.
    Value Pointer;
    bool HoldsPointer = false;
    /// A whole register stored (FlowInstruction::StoresRegisterBytes): its bytes.
    uint8_t RegisterBytes = 0;
  };
  struct Access {
    bool Loads = false, Stores = false;
    /// A load (not a store too) through a frame register that does not point into the
    /// stack.
    bool LoadsElsewhere = false;
    bool StoresPointer = false;
    uint8_t StoresRegisterBytes = 0;
    Value Load, Store, Pointer;
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
    Slots[slot(A.Store)] = {A.Store, Issue, A.Pointer, A.StoresPointer, A.StoresRegisterBytes};
  }

private:
  /// Stores remembered: the last ones, by address, as a direct-mapped table.
  static constexpr size_t TableSize = 4096;

  Value fresh(bool Stack) { return {++Symbols, Stack, 0}; }
  Value at(int8_t Pointer, int64_t Offset) const {
    const Value &P = Pointers[Pointer];
    return {P.Symbol, P.Stack, P.Offset + Offset};
  }
  static size_t slot(const Value &V) {
    uint64_t H = (uint64_t(V.Symbol) << 32 ^ uint64_t(V.Offset)) * 0x9E3779B97F4A7C15ull;
    return H >> 52; // 12 bits: TableSize
  }

  Value Pointers[2];
  uint32_t Symbols = 0;
  std::vector<Store> Slots;
};

} // namespace mlgo
