/// \file
/// Each distinct instruction as the flow engine (FlowSimulator.h) times it: its reads,
/// writes, processor resources and schedulers, and what it does to the stack and frame
/// pointers (FlowModel.h derives it).
#pragma once

#include "llvm/ADT/SmallVector.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCSchedule.h"
#include <cstdint>

namespace mlgo {

struct FlowRead {
  llvm::MCPhysReg Register = 0;
  /// Its register units: FlowInstruction::Units from FirstUnit, NumUnits of them.
  uint8_t FirstUnit = 0, NumUnits = 0;
  /// A zero idiom's or dependency-breaking instruction's read, which waits for no
  /// earlier write.
  bool Independent = false;
  uint8_t UseIndex = 0;
  /// The scheduling class, when it has read advances for UseIndex: a write that
  /// forwards early (MCSubtargetInfo::getReadAdvanceCycles).
  const llvm::MCSchedClassDesc *Advances = nullptr;
};

struct FlowWrite {
  llvm::MCPhysReg Register = 0;
  uint8_t FirstUnit = 0, NumUnits = 0; ///< as FlowRead's
  uint16_t Latency = 0;
  uint16_t WriteResource = 0; ///< what read advances match
  /// The stack pointer as push, pop, call and ret change it: x86's stack engine
  /// computes it when they dispatch, whenever they execute.
  bool AtDispatch = false;
};

/// Cycles on one processor resource (a unit or a group; FlowModel::lanes()).
struct FlowResourceUse {
  uint16_t Resource;
  uint16_t Cycles;
  /// The whole group is held (MCA's reserved groups), not one of its units.
  bool Reserved;
  /// FlowModel::lanes(Resource), kept here for the engine's inner loop.
  uint64_t Lanes;
};

/// The most processor resources one instruction uses.
constexpr unsigned MaxResources = 16;

/// The frame registers the flow engine follows (the stack and the frame pointer), so
/// that it knows when a load reads a stack slot an earlier store wrote.
enum FramePointer : int8_t { NoPointer = -1, StackPointer = 0, FramePointerReg = 1 };

/// What an instruction does to the stack pointer, besides reading and writing it.
enum class StackEffect : uint8_t {
  None,
  Push,  ///< the stack pointer drops by StackBytes, then a store there (push, call)
  Pop,   ///< a load at the stack pointer, which then rises by StackBytes (pop, ret)
  Leave, ///< the stack pointer becomes the frame pointer, then a Pop into it
};

struct FlowInstruction {
  /// What is described (opcode and operands).
  llvm::MCInst Instruction;
  /// The register units whose last writes it waits for, without read advances.
  llvm::SmallVector<uint16_t, 8> ReadUnits;
  /// The reads with read advances (their units in Units), which the engine matches
  /// against the write that produced each value.
  llvm::SmallVector<FlowRead, 2> AdvancedReads;
  llvm::SmallVector<FlowWrite, 2> Writes;
  llvm::SmallVector<FlowResourceUse, 4> Resources;
  llvm::SmallVector<uint8_t, 2> Buffers; ///< FlowModel::buffers() indices
  /// The register units of AdvancedReads and Writes (FlowModel::units).
  llvm::SmallVector<uint16_t, 12> Units;
  uint16_t MicroOps = 0, Latency = 0;
  bool MayLoad = false, MayStore = false, BeginGroup = false, EndGroup = false;
  /// False for a zero-latency instruction without resources (nop, a zero idiom on
  /// most cores): done when dispatched, as in MCA.
  bool Executes = true;
  /// A register move the register file can rename away (move elimination).
  bool MovesRegister = false;
  /// A jump or call, conditional or not, direct or not: a mispredicted transfer of
  /// control resolves when it completes.
  bool Branches = false;
  /// A conditional jump: the front end takes it with the instruction before it, which
  /// sets its flags (macro-fusion), as one operation (CoreProfile::LineOps).
  bool Fuses = false;

  StackEffect Stack = StackEffect::None;
  int32_t StackBytes = 0;
  /// A memory operand [Slot + SlotOffset] on a frame register, without index.
  FramePointer Slot = NoPointer;
  int64_t SlotOffset = 0;
  /// Frame registers written otherwise than by Stack and MovesFrameTo: their values
  /// are new (bit 0: stack pointer, bit 1: frame pointer).
  uint8_t ClobbersFrame = 0;
  /// A frame register set to one plus a constant (mov rbp, rsp; add, sub and lea of
  /// the stack pointer).
  FramePointer MovesFrameTo = NoPointer, MovesFrameFrom = NoPointer;
  int64_t MovesFrameBy = 0;
  /// A push of a frame register (push rbp) or a pop into one (pop rbp, leave).
  FramePointer PushesFrame = NoPointer, PopsFrame = NoPointer;
  /// The register units of the memory operand's base and index registers: a store's
  /// address is known once they are.
  llvm::SmallVector<uint16_t, 6> AddressUnits;
  /// A store of a whole 32- or 64-bit general register (mov, push): its bytes, else 0.
  uint8_t StoresRegisterBytes = 0;
  /// A load of a whole 32- or 64-bit general register, nothing else (mov, pop): its
  /// bytes, else 0. A core that renames memory (CoreProfile) gives it the register
  /// that a store of the same bytes to its slot wrote.
  uint8_t LoadsRegisterBytes = 0;
  /// A store of a general register or an immediate, and nothing else (mov, push): what
  /// a core's store throughput counts (CoreProfile::StoresPerCycle).
  bool PlainStore = false;
  /// Whether any of the above applies: the frames need following.
  bool TouchesFrame = false;
  /// A data load (code/DataLoad.h): the trace's load dependences name it by its order.
  bool DataLoad = false;
};

/// The same opcode and operands.
bool sameInstruction(const llvm::MCInst &A, const llvm::MCInst &B);

} // namespace mlgo
