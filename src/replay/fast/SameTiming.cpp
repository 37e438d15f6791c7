/// \file
/// Comparing decoded instructions as MCA sees them.
#include "replay/fast/SameTiming.h"

namespace mlgo {

CodeMatch SameTiming::compareInstructions(const llvm::MCInst &A,
                                          const llvm::MCInst &B) const {
  if (A.getOpcode() != B.getOpcode() || A.getNumOperands() != B.getNumOperands())
    return CodeMatch::Different;
  const llvm::MCInstrDesc &Desc = InstrInfo.get(A.getOpcode());
  bool Locates = Desc.isCall() || Desc.isBranch();
  for (const llvm::MCInst *Inst : {&A, &B})
    for (const llvm::MCOperand &Op : *Inst)
      Locates |= Op.isReg() && Op.getReg() == ProgramCounter;
  CodeMatch Match = CodeMatch::Same;
  for (unsigned I = 0; I < A.getNumOperands(); ++I) {
    const llvm::MCOperand &X = A.getOperand(I), &Y = B.getOperand(I);
    if (X.isReg() != Y.isReg() || X.isImm() != Y.isImm())
      return CodeMatch::Different;
    if (X.isReg() && X.getReg() != Y.getReg()) {
      // No register is not a register; the program counter is never renamed.
      if (!X.getReg() || !Y.getReg() || X.getReg() == ProgramCounter ||
          Y.getReg() == ProgramCounter)
        return CodeMatch::Different;
      Match = CodeMatch::Renamed;
    }
    // MCA models no addresses: where a load or store accesses (a stack slot that the
    // allocator placed elsewhere) does not change its timing.
    bool Addresses = !AddressesMatter && (Desc.mayLoad() || Desc.mayStore()) &&
                     I < Desc.getNumOperands() &&
                     Desc.operands()[I].OperandType == llvm::MCOI::OPERAND_MEMORY;
    if (X.isImm() && X.getImm() != Y.getImm() && !Locates && !Addresses)
      return CodeMatch::Different;
    // Disassembled code holds only registers and immediates; anything else is
    // compared as different, which only costs a simulation.
    if (!X.isReg() && !X.isImm())
      return CodeMatch::Different;
  }
  return Match;
}

CodeMatch SameTiming::operator()(llvm::ArrayRef<llvm::MCInst> A,
                                 llvm::ArrayRef<llvm::MCInst> B) const {
  if (A.data() == B.data() && A.size() == B.size())
    return CodeMatch::Same;
  if (A.size() != B.size())
    return CodeMatch::Different;
  CodeMatch Match = CodeMatch::Same;
  for (size_t I = 0; I < A.size() && Match != CodeMatch::Different; ++I)
    Match = std::max(Match, compareInstructions(A[I], B[I]));
  return Match;
}

std::vector<std::pair<uint32_t, uint32_t>>
SameTiming::align(llvm::ArrayRef<llvm::MCInst> A, llvm::ArrayRef<llvm::MCInst> B) const {
  // Longest common subsequence; segments are short (tens of instructions).
  size_t N = A.size(), M = B.size();
  std::vector<uint32_t> Longest((N + 1) * (M + 1), 0); // of A[I..] and B[J..]
  auto at = [&](size_t I, size_t J) -> uint32_t & { return Longest[I * (M + 1) + J]; };
  for (size_t I = N; I-- > 0;)
    for (size_t J = M; J-- > 0;)
      at(I, J) = compareInstructions(A[I], B[J]) != CodeMatch::Different
                     ? at(I + 1, J + 1) + 1
                     : std::max(at(I + 1, J), at(I, J + 1));
  std::vector<std::pair<uint32_t, uint32_t>> Pairs;
  for (size_t I = 0, J = 0; I < N && J < M;) {
    if (at(I, J) == at(I + 1, J))
      ++I;
    else if (at(I, J) == at(I, J + 1))
      ++J;
    else
      Pairs.push_back({uint32_t(I++), uint32_t(J++)});
  }
  return Pairs;
}

} // namespace mlgo
