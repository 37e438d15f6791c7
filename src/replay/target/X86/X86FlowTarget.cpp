/// \file
/// x86-64's opcodes as the flow engine needs them, by name.
#include "X86FlowTarget.h"
#include "code/MemoryOperand.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/MC/MCInstrDesc.h"

namespace mlgo {

X86FlowTarget::X86FlowTarget(const McaTarget &Target) : InstrInfo(Target.instrInfo()) {
  const llvm::MCRegisterInfo &MRI = Target.registerInfo();
  for (unsigned Reg = 1; Reg < MRI.getNumRegs(); ++Reg) {
    llvm::StringRef Name = MRI.getName(Reg);
    if (Name == "RSP")
      FrameRegisters[StackPointer] = Reg;
    else if (Name == "RBP")
      FrameRegisters[FramePointerReg] = Reg;
  }
}

/// The register-to-register moves Intel cores eliminate at renaming: 32- and 64-bit
/// general-purpose registers and whole XMM and YMM registers (not 8- and 16-bit ones,
/// which merge into their register).
bool X86FlowTarget::renamesMove(const llvm::MCInst &Inst) const {
  static const llvm::StringRef Moves[] = {
      "MOV32rr",    "MOV32rr_REV", "MOV64rr",    "MOV64rr_REV", "MOVAPSrr",   "MOVAPDrr",
      "MOVUPSrr",   "MOVUPDrr",    "MOVDQArr",   "MOVDQUrr",    "VMOVAPSrr",  "VMOVAPDrr",
      "VMOVUPSrr",  "VMOVUPDrr",   "VMOVDQArr",  "VMOVDQUrr",   "VMOVAPSYrr", "VMOVAPDYrr",
      "VMOVUPSYrr", "VMOVUPDYrr",  "VMOVDQAYrr", "VMOVDQUYrr"};
  return llvm::is_contained(Moves, InstrInfo.getName(Inst.getOpcode()));
}

/// Where LLVM 22's Golden Cove model (which sapphirerapids, emeraldrapids,
/// graniterapids and alderlake share) is wrong about instructions of the bundled
/// programs' hot loops, as an Emerald Rapids core runs them (bench/tools/alu-ops.c
/// measures it; docs/results/ipc.md): a register-register xor takes one cycle, not 2; a
/// rotate by an immediate (not by 1, which is two) is one micro-op holding its port one
/// cycle, not two. Without the correction the engine overprices crypto's rounds of add,
/// xor and rotate. Other models already say so: nothing changes there. Tested by
/// FlowSimulatorTest ("a register xor takes one cycle and a rotate ...").
void X86FlowTarget::correct(const llvm::MCInst &Inst, FlowInstruction &D) const {
  static const llvm::StringRef Xors[] = {"XOR32rr", "XOR32rr_REV", "XOR64rr", "XOR64rr_REV"};
  static const llvm::StringRef Rotates[] = {"ROL32ri", "ROL64ri", "ROR32ri", "ROR64ri"};
  llvm::StringRef Opcode = InstrInfo.getName(Inst.getOpcode());
  if (D.Latency > 1 && llvm::is_contained(Xors, Opcode)) {
    D.Latency = 1;
    for (FlowWrite &W : D.Writes)
      W.Latency = std::min<uint16_t>(W.Latency, 1);
  }
  if (D.MicroOps > 1 && llvm::is_contained(Rotates, Opcode)) {
    D.MicroOps = 1;
    for (FlowResourceUse &Use : D.Resources)
      Use.Cycles = std::min<uint16_t>(Use.Cycles, 1);
  }
}

FramePointer X86FlowTarget::frameOf(const llvm::MCOperand &Op) const {
  if (Op.isReg())
    for (int8_t F : {StackPointer, FramePointerReg})
      if (Op.getReg() == FrameRegisters[F])
        return FramePointer(F);
  return NoPointer;
}

/// Recognizes what instructions do to the stack and frame pointers, by opcode: the
/// scheduling model does not say, and the flow engine needs it to pair a reload with
/// the spill it reads (FlowSimulator.h).
void X86FlowTarget::followFrame(const llvm::MCInst &Inst, FlowInstruction &D,
                                llvm::SmallVectorImpl<llvm::MCPhysReg> &AddressRegisters) const {
  const llvm::MCInstrDesc &Desc = InstrInfo.get(Inst.getOpcode());
  llvm::StringRef Name = InstrInfo.getName(Inst.getOpcode());
  auto reg = [&](unsigned I) -> const llvm::MCOperand & { return Inst.getOperand(I); };
  bool NoReg[8] = {};
  for (unsigned I = 0; I < Inst.getNumOperands() && I < 8; ++I)
    NoReg[I] = reg(I).isReg() && !reg(I).getReg();

  // A memory operand: base, scale, index, displacement, segment.
  if (std::optional<unsigned> I = memoryOperand(Inst, Desc)) {
    for (unsigned Address : {*I, *I + 2})
      if (reg(Address).isReg() && reg(Address).getReg())
        AddressRegisters.push_back(reg(Address).getReg());
    FramePointer Base = frameOf(reg(*I));
    if (Base != NoPointer && reg(*I + 2).isReg() && !reg(*I + 2).getReg() &&
        reg(*I + 3).isImm() && reg(*I + 4).isReg() && !reg(*I + 4).getReg()) {
      D.Slot = Base;
      D.SlotOffset = reg(*I + 3).getImm();
    }
  }

  if (Desc.isCall() || Name.starts_with("PUSH64")) {
    D.Stack = StackEffect::Push;
    D.StackBytes = 8;
    if (Name == "PUSH64r")
      D.PushesFrame = frameOf(reg(0));
  } else if (Desc.isReturn() || Name.starts_with("POP64")) {
    D.Stack = StackEffect::Pop;
    D.StackBytes = 8;
    if (Name == "POP64r")
      D.PopsFrame = frameOf(reg(0));
  } else if (Name == "LEAVE64") {
    D.Stack = StackEffect::Leave;
    D.StackBytes = 8;
    D.PopsFrame = FramePointerReg;
  } else if ((Name.starts_with("ADD64ri") || Name.starts_with("SUB64ri")) &&
             Inst.getNumOperands() == 3 && frameOf(reg(0)) != NoPointer &&
             reg(1).isReg() && reg(1).getReg() == reg(0).getReg() && reg(2).isImm()) {
    D.MovesFrameTo = D.MovesFrameFrom = frameOf(reg(0));
    D.MovesFrameBy = Name.starts_with("ADD") ? reg(2).getImm() : -reg(2).getImm();
  } else if (Name == "LEA64r" && Inst.getNumOperands() == 6 && frameOf(reg(0)) != NoPointer &&
             frameOf(reg(1)) != NoPointer && NoReg[3] && reg(4).isImm() && NoReg[5]) {
    D.MovesFrameTo = frameOf(reg(0));
    D.MovesFrameFrom = frameOf(reg(1));
    D.MovesFrameBy = reg(4).getImm();
  } else if (Name == "MOV64rr" && frameOf(reg(0)) != NoPointer &&
             frameOf(reg(1)) != NoPointer) {
    D.MovesFrameTo = frameOf(reg(0));
    D.MovesFrameFrom = frameOf(reg(1));
  }

  // Whole-register moves to and from memory: what memory renaming pairs (CoreProfile).
  if (Name == "MOV64mr" || Name == "PUSH64r")
    D.StoresRegisterBytes = 8;
  else if (Name == "MOV32mr")
    D.StoresRegisterBytes = 4;
  if (Name == "MOV64rm" || Name == "POP64r")
    D.LoadsRegisterBytes = 8;
  else if (Name == "MOV32rm")
    D.LoadsRegisterBytes = 4;
  static const llvm::StringRef PlainStores[] = {
      "MOV8mr", "MOV8mr_NOREX", "MOV16mr", "MOV32mr",  "MOV64mr",  "MOV8mi",
      "MOV16mi", "MOV32mi",     "MOV64mi32", "PUSH64r", "PUSH64i8", "PUSH64i32"};
  D.PlainStore = llvm::is_contained(PlainStores, Name);
}

} // namespace mlgo
