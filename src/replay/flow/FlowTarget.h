/// \file
/// What the flow model (FlowModel.h) needs to know of a target that its scheduling model
/// does not say: its frame registers, what its instructions do to them, and where
/// measured cores differ from the model. One implementation per target
/// (target/X86/X86FlowTarget.h), as LLVM MCA's CustomBehaviour keeps a target's quirks
/// apart from the generic pipeline.
#pragma once

#include "replay/flow/FlowInstruction.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCRegister.h"

namespace mlgo {

class FlowTarget {
public:
  virtual ~FlowTarget() = default;

  /// The stack pointer or the frame pointer register.
  virtual llvm::MCPhysReg frameRegister(FramePointer Pointer) const = 0;
  /// Whether the cores rename \p Inst, a register move, away where the scheduling model
  /// declares no move elimination.
  virtual bool renamesMove(const llvm::MCInst &Inst) const = 0;
  /// Corrects \p D where the cores, as measured, differ from the scheduling model.
  virtual void correct(const llvm::MCInst &Inst, FlowInstruction &D) const = 0;
  /// Fills in what \p Inst does to the frames and memory, from its opcode and operands:
  /// D's Slot and SlotOffset, Stack and StackBytes, MovesFrameTo, MovesFrameFrom and
  /// MovesFrameBy, PushesFrame and PopsFrame, StoresRegisterBytes and
  /// LoadsRegisterBytes. Appends the base and index registers of its memory operand to
  /// \p AddressRegisters.
  virtual void followFrame(const llvm::MCInst &Inst, FlowInstruction &D,
                           llvm::SmallVectorImpl<llvm::MCPhysReg> &AddressRegisters) const = 0;
};

} // namespace mlgo
