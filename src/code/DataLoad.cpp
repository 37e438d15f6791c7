#include "DataLoad.h"

#include "llvm/ADT/StringRef.h"

namespace mlgo {

bool isDataLoad(const llvm::MCInst &Inst, const llvm::MCInstrInfo &MII,
                llvm::MCRegister StackPointer) {
  const llvm::MCInstrDesc &Desc = MII.get(Inst.getOpcode());
  if (!Desc.mayLoad() || Desc.mayStore() || Desc.isCall() || Desc.isReturn())
    return false;
  llvm::StringRef Name = MII.getName(Inst.getOpcode());
  if (Name.starts_with("POP") || Name.starts_with("LEAVE"))
    return false;
  // x86's memory operand is five: base, scale, index, displacement, segment.
  for (unsigned I = 0; I < Desc.getNumOperands() && I < Inst.getNumOperands(); ++I)
    if (Desc.operands()[I].OperandType == llvm::MCOI::OPERAND_MEMORY)
      return !(Inst.getOperand(I).isReg() && Inst.getOperand(I).getReg() == StackPointer);
  return true;
}

} // namespace mlgo
