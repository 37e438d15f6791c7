/// \file
/// Comparing instructions, for the flow model's descriptions.
#include "replay/flow/FlowInstruction.h"

namespace mlgo {

/// Expressions (which the disassembler does not make) never compare equal, so such
/// instructions are described each time.
bool sameInstruction(const llvm::MCInst &A, const llvm::MCInst &B) {
  if (A.getOpcode() != B.getOpcode() || A.getNumOperands() != B.getNumOperands())
    return false;
  for (unsigned I = 0; I < A.getNumOperands(); ++I) {
    const llvm::MCOperand &X = A.getOperand(I), &Y = B.getOperand(I);
    bool Same = (X.isReg() && Y.isReg() && X.getReg() == Y.getReg()) ||
                (X.isImm() && Y.isImm() && X.getImm() == Y.getImm()) ||
                (X.isSFPImm() && Y.isSFPImm() && X.getSFPImm() == Y.getSFPImm()) ||
                (X.isDFPImm() && Y.isDFPImm() && X.getDFPImm() == Y.getDFPImm());
    if (!Same)
      return false;
  }
  return true;
}

} // namespace mlgo
