/// \file
/// Comparing decoded instructions as MCA sees them.
#include "SameTiming.h"

namespace mlgo {

bool SameTiming::sameInstruction(const llvm::MCInst &A, const llvm::MCInst &B) const {
  if (A.getOpcode() != B.getOpcode() || A.getNumOperands() != B.getNumOperands())
    return false;
  const llvm::MCInstrDesc &Desc = InstrInfo.get(A.getOpcode());
  bool Locates = Desc.isCall() || Desc.isBranch();
  for (const llvm::MCOperand &Op : A)
    Locates |= Op.isReg() && Op.getReg() == ProgramCounter;
  for (unsigned I = 0; I < A.getNumOperands(); ++I) {
    const llvm::MCOperand &X = A.getOperand(I), &Y = B.getOperand(I);
    if (X.isReg() != Y.isReg() || X.isImm() != Y.isImm())
      return false;
    if (X.isReg() && X.getReg() != Y.getReg())
      return false;
    if (X.isImm() && X.getImm() != Y.getImm() && !Locates)
      return false;
    // Disassembled code holds only registers and immediates; anything else is
    // compared as different, which only costs a simulation.
    if (!X.isReg() && !X.isImm())
      return false;
  }
  return true;
}

bool SameTiming::operator()(llvm::ArrayRef<llvm::MCInst> A, llvm::ArrayRef<llvm::MCInst> B) {
  if (A.data() == B.data() && A.size() == B.size())
    return true;
  Key K{{A.data(), A.size()}, {B.data(), B.size()}};
  auto [It, New] = Known.try_emplace(K, false);
  if (New)
    It->second = A.size() == B.size() &&
                 std::equal(A.begin(), A.end(), B.begin(),
                            [&](const llvm::MCInst &X, const llvm::MCInst &Y) {
                              return sameInstruction(X, Y);
                            });
  return It->second;
}

} // namespace mlgo
