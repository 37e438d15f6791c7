/// \file
/// Setting up LLVM's MC layer for one target and decoding single instructions.
#include "Disassembler.h"
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

} // namespace mlgo
