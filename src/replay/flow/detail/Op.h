/// \file
/// An instruction as the flow engine's inner loop reads it.
#pragma once

#include "replay/flow/FlowModel.h"
#include "replay/flow/FlowSimulator.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <cstdint>

namespace mlgo {

/// An instruction as the inner loop reads it, one small block per instruction of an
/// event, side by side: its reads padded to MaxReads units with a unit never written,
/// its writes padded to MaxWrites of WriteUnitsOf units with a unit never read, so
/// that they take no branch per operand. What does not fit (more read units, more
/// resource uses, and Irregular: more writes, units or schedulers) is read from the
/// instruction's FlowInstruction.
struct FlowSimulator::Op {
  static constexpr unsigned MaxReads = 6, MaxWrites = 2, MaxUses = 4, MaxBuffers = 3;
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
  uint8_t NumUses;
  /// The schedulers it waits in (a load and an operation: two on some cores), at least
  /// one.
  uint8_t Buffers[MaxBuffers], NumBuffers;
  /// Writes, and which of them are the stack pointer as the stack engine sets it
  /// (FlowWrite::AtDispatch, bit W): where not Irregular, all that the timing reads of
  /// them is here, not in Full.
  uint8_t NumWrites = 0, AtDispatch = 0;
  /// Where the front end is modeled, the blocks this instruction starts, after the one
  /// before it in its event (the first: 0, found when fetched).
  uint8_t FetchBlocks = 0;
  /// Where the front end is modeled, a jump that splits from the instruction before it
  /// in its event (FlowSimulator::splitsJump; the first: found when fetched).
  bool SplitsJump = false;
  bool Branches;
  /// FlowInstruction::Fuses: not an operation of its own to the front end.
  bool Fuses;
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
    Fuses = I.Fuses;
    // Instructions without a scheduler count in one that is never full.
    NumBuffers = static_cast<uint8_t>(std::max<size_t>(1, I.Buffers.size()));
    Buffers[0] = Unbuffered;
    llvm::copy(llvm::ArrayRef(I.Buffers).take_front(MaxBuffers), Buffers);
    unsigned Width = Model.dispatchWidth();
    FirstSlots = static_cast<uint16_t>(std::min<unsigned>(MicroOps, Width));
    WholeCycles = static_cast<uint16_t>((MicroOps - 1) / Width);
    LastSlots = static_cast<uint16_t>((MicroOps - 1) % Width + 1);
    NumUses = static_cast<uint8_t>(I.Resources.size());
    Irregular = I.Writes.size() > MaxWrites || I.Buffers.size() > MaxBuffers;
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
      AtDispatch |= uint8_t(Write.AtDispatch) << W;
    }
    NumWrites = static_cast<uint8_t>(I.Writes.size());
    Unusual = !Executes || MovesRegister || TouchesFrame || AtDispatch;
  }
  llvm::ArrayRef<uint8_t> buffers() const {
    return Irregular ? llvm::ArrayRef(Full->Buffers) : llvm::ArrayRef(Buffers, NumBuffers);
  }
  llvm::ArrayRef<FlowResourceUse> uses() const {
    return NumUses > MaxUses ? llvm::ArrayRef(Full->Resources)
                             : llvm::ArrayRef(Uses, NumUses);
  }
};

} // namespace mlgo
