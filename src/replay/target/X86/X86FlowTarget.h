/// \file
/// x86-64 as the flow engine models it: the stack and frame pointers, what push, pop,
/// call, ret, leave, add, sub, lea and mov do to them, the register moves Intel cores
/// rename away and the measured corrections of LLVM's models.
#pragma once

#include "replay/engine/McaTarget.h"
#include "replay/flow/FlowTarget.h"

namespace mlgo {

class X86FlowTarget : public FlowTarget {
public:
  explicit X86FlowTarget(const McaTarget &Target);

  llvm::MCPhysReg frameRegister(FramePointer Pointer) const override {
    return FrameRegisters[Pointer];
  }
  bool renamesMove(const llvm::MCInst &Inst) const override;
  void correct(const llvm::MCInst &Inst, FlowInstruction &D) const override;
  void followFrame(const llvm::MCInst &Inst, FlowInstruction &D,
                   llvm::SmallVectorImpl<llvm::MCPhysReg> &AddressRegisters) const override;

private:
  /// The frame register \p Op is, if any.
  FramePointer frameOf(const llvm::MCOperand &Op) const;

  const llvm::MCInstrInfo &InstrInfo;
  llvm::MCPhysReg FrameRegisters[2] = {0, 0}; ///< by FramePointer: rsp, rbp
};

} // namespace mlgo
