/// \file
/// The flow engine's tables, from the scheduling model, and its instruction
/// descriptions, from mca::InstrBuilder.
#include "replay/flow/FlowModel.h"
#include "code/DataLoad.h"
#include "code/MemoryOperand.h"
#include "support/Error.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MCA/Instruction.h"
#include "llvm/MCA/Support.h"
#include "llvm/TargetParser/Triple.h"

namespace mlgo {

namespace {

uint64_t contentHash(const llvm::MCInst &Inst) {
  llvm::hash_code H = llvm::hash_combine(Inst.getOpcode(), Inst.getNumOperands());
  for (const llvm::MCOperand &Op : Inst) {
    if (Op.isReg())
      H = llvm::hash_combine(H, 1, Op.getReg().id());
    else if (Op.isImm())
      H = llvm::hash_combine(H, 2, Op.getImm());
    else if (Op.isSFPImm())
      H = llvm::hash_combine(H, 3, Op.getSFPImm());
    else if (Op.isDFPImm())
      H = llvm::hash_combine(H, 4, Op.getDFPImm());
    else
      H = llvm::hash_combine(H, 5);
  }
  return H;
}

/// The register-to-register moves Intel cores eliminate at renaming: 32- and 64-bit
/// general-purpose registers and whole XMM and YMM registers (not 8- and 16-bit ones,
/// which merge into their register).
bool isRenamedMove(llvm::StringRef Opcode) {
  static const llvm::StringRef Moves[] = {
      "MOV32rr",    "MOV32rr_REV", "MOV64rr",    "MOV64rr_REV", "MOVAPSrr",   "MOVAPDrr",
      "MOVUPSrr",   "MOVUPDrr",    "MOVDQArr",   "MOVDQUrr",    "VMOVAPSrr",  "VMOVAPDrr",
      "VMOVUPSrr",  "VMOVUPDrr",   "VMOVDQArr",  "VMOVDQUrr",   "VMOVAPSYrr", "VMOVAPDYrr",
      "VMOVUPSYrr", "VMOVUPDYrr",  "VMOVDQAYrr", "VMOVDQUYrr"};
  return llvm::is_contained(Moves, Opcode);
}

/// Where LLVM 22's Golden Cove model (which sapphirerapids, emeraldrapids,
/// graniterapids and alderlake share) is wrong about instructions of the bundled
/// programs' hot loops, as an Emerald Rapids core runs them (bench/tools/alu-ops.c
/// measures it; docs/results/ipc.md): a register-register xor takes one cycle, not 2; a
/// rotate by an immediate (not by 1, which is two) is one micro-op holding its port one
/// cycle, not two. Without the correction the engine overprices crypto's rounds of add,
/// xor and rotate. Other models already say so: nothing changes there. Tested by
/// FlowSimulatorTest ("a register xor takes one cycle and a rotate ...").
void correctMeasuredErrors(llvm::StringRef Opcode, FlowInstruction &D) {
  static const llvm::StringRef Xors[] = {"XOR32rr", "XOR32rr_REV", "XOR64rr", "XOR64rr_REV"};
  static const llvm::StringRef Rotates[] = {"ROL32ri", "ROL64ri", "ROR32ri", "ROR64ri"};
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

} // namespace

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

FlowModel::FlowModel(const McaTarget &Target, CoreProfile Profile)
    : Target(Target), Profile(std::move(Profile)) {}

llvm::Expected<std::unique_ptr<FlowModel>> FlowModel::create(const McaTarget &Target,
                                                             CoreProfile Profile) {
  std::unique_ptr<FlowModel> Model(new FlowModel(Target, std::move(Profile)));
  if (llvm::Error E = Model->initialize())
    return E;
  return Model;
}

llvm::Error FlowModel::initialize() {
  const llvm::MCSubtargetInfo &STI = Target.subtarget();
  const llvm::MCRegisterInfo &MRI = Target.registerInfo();
  const llvm::MCSchedModel &SM = STI.getSchedModel();
  llvm::Triple TT(STI.getTargetTriple());
  if (!TT.isX86() || !TT.isArch64Bit())
    return inputError("--engine", "the flow engine models x86-64 only, not {}; use --engine mca",
                      TT.str());
  // MCA's sizes (llvm::mca::Context::createDefaultPipeline and its units).
  ReorderBuffer = SM.MicroOpBufferSize;
  DispatchWidth = std::max(1u, SM.IssueWidth);
  MispredictPenalty = SM.MispredictPenalty;
  if (SM.hasExtraProcessorInfo()) {
    const llvm::MCExtraProcessorInfo &EPI = SM.getExtraProcessorInfo();
    if (EPI.ReorderBufferSize)
      ReorderBuffer = EPI.ReorderBufferSize;
    RetireWidth = EPI.MaxRetirePerCycle;
    auto QueueSize = [&](unsigned Id) {
      return Id ? unsigned(std::max(0, SM.getProcResource(Id)->BufferSize)) : 0u;
    };
    LoadQueue = QueueSize(EPI.LoadQueueID);
    StoreQueue = QueueSize(EPI.StoreQueueID);
    for (unsigned F = 0; F < EPI.NumRegisterFiles; ++F) {
      const llvm::MCRegisterFileDesc &File = EPI.RegisterFiles[F];
      // Moves of known zeros only: not modeled, as if none were eliminated.
      if (!File.MaxMovesEliminatedPerCycle || File.AllowZeroMoveEliminationOnly)
        continue;
      MovesEliminated = std::max<unsigned>(MovesEliminated, File.MaxMovesEliminatedPerCycle);
      for (unsigned C = 0; C < File.NumRegisterCostEntries; ++C) {
        const llvm::MCRegisterCostEntry &Cost =
            EPI.RegisterCostTable[File.RegisterCostEntryIdx + C];
        if (Cost.AllowMoveElimination)
          MovableClasses.push_back(Cost.RegisterClassID);
      }
    }
  }
  // LLVM's Intel models (Haswell to Sapphire Rapids) declare no move elimination, but
  // the cores rename register moves away (Ivy Bridge on: a chain of moves takes no
  // cycles, docs/results/accuracy.md) and register allocations differ in exactly
  // those moves. Without it, every copy holds an ALU and lengthens its chain, so trading
  // copies for spills and reloads on the load and store ports looks like a gain.
  if (!MovesEliminated) {
    MovesEliminated = DispatchWidth;
    RenamesIntelMoves = true;
  }
  if (ReorderBuffer < 2)
    return inputError("--mcpu",
                      "'{}' is an in-order core, which the flow engine does not model; use "
                      "--engine mca",
                      STI.getCPU());

  unsigned NumResources = SM.getNumProcResourceKinds();
  Masks.resize(NumResources);
  llvm::mca::computeProcResourceMasks(SM, Masks);
  Lanes.resize(NumResources);
  BufferOfResource.assign(NumResources, -1);
  for (unsigned R = 1; R < NumResources; ++R) {
    const llvm::MCProcResourceDesc &PR = *SM.getProcResource(R);
    ResourceOfMask[Masks[R]] = R;
    if (!PR.SubUnitsIdxBegin)
      for (unsigned U = 0; U < PR.NumUnits; ++U, ++NumLanes)
        Lanes[R] |= NumLanes < 64 ? uint64_t(1) << NumLanes : 0;
    if (PR.BufferSize >= 0) {
      BufferOfResource[R] = BufferSizes.size();
      // 0 and 1 are in-order resources: one waiting instruction at a time.
      BufferSizes.push_back(std::max(1, PR.BufferSize));
    }
  }
  for (unsigned R = 1; R < NumResources; ++R) {
    const llvm::MCProcResourceDesc &PR = *SM.getProcResource(R);
    if (PR.SubUnitsIdxBegin)
      for (unsigned U = 0; U < PR.NumUnits; ++U)
        Lanes[R] |= Lanes[PR.SubUnitsIdxBegin[U]];
  }
  if (NumLanes > 64)
    return inputError("--mcpu",
                      "'{}' has {} processor resource units, more than the flow engine's 64; "
                      "use --engine mca",
                      STI.getCPU(), NumLanes);
  if (BufferSizes.size() > 255)
    return inputError("--mcpu", "'{}' has more schedulers than the flow engine models",
                      STI.getCPU());

  NumRegisterUnits = MRI.getNumRegUnits();
  UnitsBegin.push_back(0);
  for (unsigned Reg = 0; Reg < MRI.getNumRegs(); ++Reg) {
    if (Reg)
      for (llvm::MCRegUnit Unit : MRI.regunits(llvm::MCRegister(Reg)))
        Units.push_back(static_cast<uint16_t>(Unit));
    UnitsBegin.push_back(Units.size());
  }
  for (unsigned Reg = 1; Reg < MRI.getNumRegs(); ++Reg) {
    llvm::StringRef Name = MRI.getName(Reg);
    if (Name == "RSP")
      FrameRegisters[StackPointer] = Reg;
    else if (Name == "RBP")
      FrameRegisters[FramePointerReg] = Reg;
  }
  Builder = std::make_unique<McaInstructionBuilder>(Target);
  return llvm::Error::success();
}

llvm::Expected<const FlowInstruction *> FlowModel::describe(const llvm::MCInst &Inst) const {
  uint64_t Hash = contentHash(Inst);
  std::lock_guard<std::mutex> Guard(Lock);
  auto [First, Last] = Described.equal_range(Hash);
  for (auto It = First; It != Last; ++It)
    if (sameInstruction(It->second->Instruction, Inst))
      return It->second;
  auto D = derive(Inst);
  if (!D)
    return D.takeError();
  Descriptions.push_back(std::move(*D));
  const FlowInstruction *Described = Descriptions.back().get();
  this->Described.insert({Hash, Described});
  return Described;
}

llvm::Expected<std::unique_ptr<FlowInstruction>>
FlowModel::derive(const llvm::MCInst &Inst) const {
  auto Made = Builder->create(Inst);
  if (!Made)
    return Made.takeError();
  const llvm::mca::Instruction &IS = **Made;
  const llvm::mca::InstrDesc &Desc = IS.getDesc();
  const llvm::MCSubtargetInfo &STI = Target.subtarget();
  const llvm::MCSchedModel &SM = STI.getSchedModel();
  auto D = std::make_unique<FlowInstruction>();
  D->Instruction = Inst;
  D->MicroOps = Desc.NumMicroOps;
  D->Latency = Desc.MaxLatency;
  llvm::SmallVector<FlowRead, 4> Reads;
  for (const llvm::mca::ReadState &Read : IS.getUses()) {
    if (!Read.getRegisterID())
      continue;
    FlowRead R;
    R.Register = Read.getRegisterID();
    R.Independent = Read.isIndependentFromDef();
    R.UseIndex = static_cast<uint8_t>(Read.getDescriptor().UseIndex);
    R.Advances = nullptr;
    const llvm::MCSchedClassDesc *Class = SM.getSchedClassDesc(Read.getSchedClass());
    for (const llvm::MCReadAdvanceEntry &Entry : STI.getReadAdvanceEntries(*Class))
      if (Entry.UseIdx == R.UseIndex)
        R.Advances = Class;
    Reads.push_back(R);
  }
  auto unitsOf = [&](auto &Access) {
    Access.FirstUnit = static_cast<uint8_t>(D->Units.size());
    for (uint16_t Unit : units(Access.Register))
      D->Units.push_back(Unit);
    Access.NumUnits = static_cast<uint8_t>(D->Units.size() - Access.FirstUnit);
  };
  for (const llvm::mca::WriteState &Write : IS.getDefs())
    if (Write.getRegisterID()) {
      FlowWrite W;
      W.Register = Write.getRegisterID();
      W.Latency = static_cast<uint16_t>(Write.getLatency());
      W.WriteResource = static_cast<uint16_t>(Write.getWriteResourceID());
      D->Writes.push_back(W);
    }
  for (FlowWrite &W : D->Writes)
    unitsOf(W);
  for (const auto &[Mask, Use] : Desc.Resources) {
    auto It = ResourceOfMask.find(Mask);
    if (It == ResourceOfMask.end() || !Use.size())
      continue;
    D->Resources.push_back({It->second, static_cast<uint16_t>(Use.size()), Use.isReserved(),
                            lanes(It->second)});
  }
  correctMeasuredErrors(Target.instrInfo().getName(Inst.getOpcode()), *D);
  if (D->Resources.size() > MaxResources)
    return stageError("{} processor resources in one instruction", D->Resources.size());
  for (uint64_t Buffers = Desc.UsedBuffers; Buffers; Buffers &= Buffers - 1) {
    uint64_t Bit = Buffers & -Buffers;
    for (unsigned R = 1; R < Masks.size(); ++R)
      if (llvm::mca::getResourceStateIndex(Masks[R]) == llvm::mca::getResourceStateIndex(Bit) &&
          BufferOfResource[R] >= 0)
        D->Buffers.push_back(static_cast<uint8_t>(BufferOfResource[R]));
  }
  D->MayLoad = IS.getMayLoad();
  D->MayStore = IS.getMayStore();
  D->BeginGroup = IS.getBeginGroup();
  D->EndGroup = IS.getEndGroup();
  D->Executes = !Desc.isZeroLatency();
  // A class's sub-registers move as it does (MCA's register files give them its
  // entry): znver4 lists GR64, and its 32-bit moves are eliminated too.
  if (IS.isOptimizableMove() && MovesEliminated && D->Writes.size() == 1)
    for (unsigned Class : MovableClasses)
      for (llvm::MCPhysReg Reg : Target.registerInfo().superregs_inclusive(D->Writes[0].Register))
        if (Target.registerInfo().getRegClass(Class).contains(Reg))
          D->MovesRegister = true;
  if (RenamesIntelMoves && D->Writes.size() == 1 &&
      isRenamedMove(Target.instrInfo().getName(Inst.getOpcode())))
    D->MovesRegister = true;
  const llvm::MCInstrDesc &Opcode = Target.instrInfo().get(Inst.getOpcode());
  D->Branches = (Opcode.isBranch() || Opcode.isCall()) && !Opcode.isReturn();
  followFrame(Inst, *D, Reads);
  // What the engine's inner loop needs of the reads: the units a read waits for, and
  // apart the few reads that a write may forward to early.
  for (FlowRead &R : Reads) {
    if (R.Independent)
      continue;
    if (R.Advances) {
      unitsOf(R);
      D->AdvancedReads.push_back(R);
    } else {
      for (uint16_t Unit : units(R.Register))
        D->ReadUnits.push_back(Unit);
    }
  }
  if (D->Units.size() > 255)
    return stageError("{} register units in one instruction", D->Units.size());
  return D;
}

/// Recognizes what x86 instructions do to the stack and frame pointers, by opcode: the
/// scheduling model does not say, and the flow engine needs it to pair a reload with
/// the spill it reads (FlowSimulator.h).
void FlowModel::followFrame(const llvm::MCInst &Inst, FlowInstruction &D,
                            llvm::MutableArrayRef<FlowRead> Reads) const {
  const llvm::MCInstrInfo &MCII = Target.instrInfo();
  const llvm::MCRegisterInfo &MRI = Target.registerInfo();
  const llvm::MCInstrDesc &Desc = MCII.get(Inst.getOpcode());
  llvm::StringRef Name = MCII.getName(Inst.getOpcode());
  auto frameOf = [&](const llvm::MCOperand &Op) {
    if (Op.isReg())
      for (int8_t F : {StackPointer, FramePointerReg})
        if (Op.getReg() == FrameRegisters[F])
          return FramePointer(F);
    return NoPointer;
  };
  auto reg = [&](unsigned I) -> const llvm::MCOperand & { return Inst.getOperand(I); };
  bool NoReg[8] = {};
  for (unsigned I = 0; I < Inst.getNumOperands() && I < 8; ++I)
    NoReg[I] = reg(I).isReg() && !reg(I).getReg();

  // A memory operand: base, scale, index, displacement, segment.
  if (std::optional<unsigned> I = memoryOperand(Inst, Desc)) {
    for (unsigned Address : {*I, *I + 2})
      if (reg(Address).isReg() && reg(Address).getReg())
        for (uint16_t Unit : units(reg(Address).getReg()))
          D.AddressUnits.push_back(Unit);
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

  // The stack engine: push, pop, call and ret neither wait for the stack pointer nor
  // make others wait for it.
  if (D.Stack == StackEffect::Push || D.Stack == StackEffect::Pop) {
    for (FlowRead &R : Reads)
      if (R.Register == FrameRegisters[StackPointer])
        R.Independent = true;
    for (FlowWrite &W : D.Writes)
      if (W.Register == FrameRegisters[StackPointer])
        W.AtDispatch = true;
  }

  // Any other write of a frame register gives it a value the engine does not know.
  for (const FlowWrite &W : D.Writes)
    for (int8_t F : {StackPointer, FramePointerReg}) {
      bool Explained = (F == StackPointer && D.Stack != StackEffect::None) ||
                       F == D.MovesFrameTo || F == D.PopsFrame;
      if (!Explained && MRI.regsOverlap(W.Register, FrameRegisters[F]))
        D.ClobbersFrame |= 1 << F;
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
  D.DataLoad = isDataLoad(Inst, MCII, FrameRegisters[StackPointer]);
  D.TouchesFrame = D.Stack != StackEffect::None ||
                   (D.Slot != NoPointer && (D.MayLoad || D.MayStore)) ||
                   D.MovesFrameTo != NoPointer || D.ClobbersFrame;
}

} // namespace mlgo
