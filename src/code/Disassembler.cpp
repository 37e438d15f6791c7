/// \file
/// Setting up LLVM's MC layer for one target; decoding and printing single
/// instructions.
#include "Disassembler.h"
#include "DataLoad.h"
#include "MemoryOperand.h"
#include "support/Error.h"

#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"

namespace mlgo {

llvm::Expected<std::unique_ptr<Disassembler>> Disassembler::create(const llvm::Triple &TT,
                                                                   llvm::StringRef CPU) {
  std::string Why;
  const llvm::Target *T = llvm::TargetRegistry::lookupTarget(TT, Why);
  if (!T)
    return stageError("no LLVM target for {}: {}", TT.str(), Why);
  auto D = std::unique_ptr<Disassembler>(new Disassembler());
  D->MRI.reset(T->createMCRegInfo(TT));
  llvm::MCTargetOptions Options;
  D->MAI.reset(T->createMCAsmInfo(*D->MRI, TT, Options));
  D->STI.reset(T->createMCSubtargetInfo(TT, CPU, ""));
  D->MII.reset(T->createMCInstrInfo());
  if (!D->MRI || !D->MAI || !D->STI || !D->MII)
    return stageError("incomplete LLVM target for {}", TT.str());
  D->Ctx = std::make_unique<llvm::MCContext>(TT, D->MAI.get(), D->MRI.get(), D->STI.get());
  D->Dis.reset(T->createMCDisassembler(*D->STI, *D->Ctx));
  if (!D->Dis)
    return stageError("no disassembler for {}", TT.str());
  // Intel syntax on x86: what compiler engineers read next to [rsp + 8] spill slots.
  D->IsX86 = TT.isX86();
  unsigned Dialect = TT.isX86() ? 1 : D->MAI->getAssemblerDialect();
  D->Printer.reset(T->createMCInstPrinter(TT, Dialect, *D->MAI, *D->MII, *D->MRI));
  if (D->Printer) {
    D->Printer->setPrintImmHex(true);
    D->Printer->setPrintBranchImmAsAddress(true);
  }
  if (TT.isX86() && TT.isArch64Bit())
    for (unsigned Reg = 1; Reg < D->MRI->getNumRegs(); ++Reg) {
      llvm::StringRef Name = D->MRI->getName(Reg);
      if (Name == "RSP")
        D->FrameRegisters[0] = Reg;
      else if (Name == "RBP")
        D->FrameRegisters[1] = Reg;
    }
  return D;
}

std::optional<uint32_t> Disassembler::decode(llvm::ArrayRef<uint8_t> Bytes,
                                             uint64_t Address, llvm::MCInst &Inst) const {
  uint64_t Size = 0;
  if (Bytes.empty() ||
      Dis->getInstruction(Inst, Size, Bytes, Address, llvm::nulls()) !=
          llvm::MCDisassembler::Success ||
      Size == 0)
    return std::nullopt;
  return static_cast<uint32_t>(Size);
}

std::optional<DecodedInstruction> Disassembler::decode(llvm::ArrayRef<uint8_t> Bytes,
                                                       uint64_t Address) const {
  llvm::MCInst Inst;
  auto Size = decode(Bytes, Address, Inst);
  if (!Size)
    return std::nullopt;
  const llvm::MCInstrDesc &Desc = MII->get(Inst.getOpcode());
  bool Ends = Desc.isCall() || Desc.isBranch() || Desc.isReturn() || Desc.isTerminator();
  return DecodedInstruction{*Size, Ends, Desc.isCall()};
}

std::string Disassembler::print(const llvm::MCInst &Inst, uint64_t Address,
                                uint32_t Size) const {
  if (!Printer)
    return MII->getName(Inst.getOpcode()).str();
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  // x86's printer adds a branch's displacement to the address it is given, which on
  // x86 is the next instruction's.
  Printer->printInst(&Inst, IsX86 ? Address + Size : Address, "", *STI, OS);
  OS.flush();
  // The printer indents with a tab and separates the mnemonic with one.
  llvm::StringRef Trimmed = llvm::StringRef(Text).trim();
  std::string Out;
  for (char C : Trimmed)
    Out += C == '\t' ? ' ' : C;
  return Out;
}

StackSlotAccess Disassembler::stackSlotAccess(const llvm::MCInst &Inst) const {
  StackSlotAccess Access;
  if (!FrameRegisters[0])
    return Access;
  const llvm::MCInstrDesc &Desc = MII->get(Inst.getOpcode());
  if (!Desc.mayLoad() && !Desc.mayStore())
    return Access;
  std::optional<unsigned> I = memoryOperand(Inst, Desc);
  if (!I)
    return Access;
  const llvm::MCOperand &Base = Inst.getOperand(*I), &Index = Inst.getOperand(*I + 2),
                        &Segment = Inst.getOperand(*I + 4);
  bool OnFrame = Base.isReg() && (Base.getReg() == FrameRegisters[0] ||
                                  Base.getReg() == FrameRegisters[1]);
  if (OnFrame && Index.isReg() && !Index.getReg() && Segment.isReg() && !Segment.getReg()) {
    Access.Stores = Desc.mayStore();
    Access.Loads = Desc.mayLoad();
  }
  return Access;
}

bool Disassembler::isDataLoad(const llvm::MCInst &Inst) const {
  return FrameRegisters[0] && mlgo::isDataLoad(Inst, *MII, FrameRegisters[0]);
}

} // namespace mlgo
