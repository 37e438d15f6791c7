/// \file
/// Reading which register families an instruction reads and writes.
#include "replay/fast/RegisterAccesses.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/DenseMap.h"

namespace mlgo {

RegisterAccessReader::RegisterAccessReader(const llvm::MCRegisterInfo &RegisterInfo,
                                           const llvm::MCInstrInfo &InstrInfo,
                                           const llvm::MCInstrAnalysis *InstrAnalysis)
    : RegisterInfo(RegisterInfo), InstrInfo(InstrInfo), InstrAnalysis(InstrAnalysis),
      Families(RegisterInfo.getNumRegs()), SubIndices(RegisterInfo.getNumRegs()) {
  for (unsigned Reg = 1; Reg < RegisterInfo.getNumRegs(); ++Reg) {
    unsigned Family = Reg;
    for (llvm::MCPhysReg Super : RegisterInfo.superregs(Reg))
      if (RegisterInfo.superregs(Super).empty())
        Family = Super;
    Families[Reg] = Family;
    SubIndices[Reg] = Family == Reg ? 0 : RegisterInfo.getSubRegIndex(Family, Reg);
  }
}

void RegisterAccessReader::add(RegisterAccesses &Out, llvm::MCRegister Register,
                               RegisterAccess::Kind How) const {
  if (!Register || Register.id() >= Families.size())
    return;
  Out.Accesses.push_back(
      {Families[Register.id()], SubIndices[Register.id()], How});
}

RegisterAccesses RegisterAccessReader::read(llvm::ArrayRef<llvm::MCInst> Code) const {
  RegisterAccesses Out;
  llvm::DenseMap<uint16_t, uint32_t> LastWrite;
  for (const llvm::MCInst &Inst : Code) {
    Out.Begin.push_back(Out.Accesses.size());
    const llvm::MCInstrDesc &Desc = InstrInfo.get(Inst.getOpcode());
    unsigned Defs = std::min<unsigned>(Desc.getNumDefs(), Inst.getNumOperands());
    for (unsigned I = Defs; I < Inst.getNumOperands(); ++I)
      if (Inst.getOperand(I).isReg())
        add(Out, Inst.getOperand(I).getReg(), RegisterAccess::Read);
    for (llvm::MCPhysReg Register : Desc.implicit_uses())
      add(Out, Register, RegisterAccess::Read);
    // Writes of whole families, or that clear the rest of theirs (32-bit GPRs, VEX),
    // start a new value; other partial writes merge into the old one.
    llvm::APInt Clears(Desc.getNumDefs() + Desc.implicit_defs().size(), 0);
    if (InstrAnalysis)
      InstrAnalysis->clearsSuperRegisters(RegisterInfo, Inst, Clears);
    auto write = [&](llvm::MCRegister Register, unsigned Bit) {
      if (!Register || Register.id() >= Families.size())
        return;
      bool Whole = SubIndices[Register.id()] == 0 || Clears[Bit];
      add(Out, Register, Whole ? RegisterAccess::Write : RegisterAccess::PartialWrite);
      LastWrite[Families[Register.id()]] = Out.Begin.size() - 1;
    };
    for (unsigned I = 0; I < Defs; ++I)
      if (Inst.getOperand(I).isReg())
        write(Inst.getOperand(I).getReg(), I);
    for (unsigned I = 0; I < Desc.implicit_defs().size(); ++I)
      write(Desc.implicit_defs()[I], Desc.getNumDefs() + I);
  }
  Out.Begin.push_back(Out.Accesses.size());
  Out.LastWrites.assign(LastWrite.begin(), LastWrite.end());
  return Out;
}

} // namespace mlgo
