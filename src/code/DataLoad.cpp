#include "DataLoad.h"
#include "MemoryOperand.h"

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
  std::optional<unsigned> Memory = memoryOperand(Inst, Desc);
  if (!Memory)
    return true;
  const llvm::MCOperand &Base = Inst.getOperand(*Memory);
  return !(Base.isReg() && Base.getReg() == StackPointer);
}

} // namespace mlgo
