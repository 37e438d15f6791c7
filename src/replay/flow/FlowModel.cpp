/// \file
/// The flow engine's tables, from the scheduling model, and its instruction
/// descriptions, from mca::InstrBuilder.
#include "replay/flow/FlowModel.h"
#include "code/DataLoad.h"
#include "support/Error.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MCA/Instruction.h"
#include "llvm/MCA/Support.h"

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

} // namespace

FlowModel::FlowModel(const McaTarget &Target, std::unique_ptr<FlowTarget> Hooks,
                     CoreProfile Profile)
    : Target(Target), Hooks(std::move(Hooks)), Profile(std::move(Profile)) {}

llvm::Expected<std::unique_ptr<FlowModel>>
FlowModel::create(const McaTarget &Target, std::unique_ptr<FlowTarget> Hooks,
                  CoreProfile Profile) {
  std::unique_ptr<FlowModel> Model(
      new FlowModel(Target, std::move(Hooks), std::move(Profile)));
  if (llvm::Error E = Model->initialize())
    return E;
  return Model;
}

llvm::Error FlowModel::initialize() {
  const llvm::MCSubtargetInfo &STI = Target.subtarget();
  const llvm::MCRegisterInfo &MRI = Target.registerInfo();
  const llvm::MCSchedModel &SM = STI.getSchedModel();
  // MCA's sizes (llvm::mca::Context::createDefaultPipeline and its units).
  ReorderBuffer = SM.MicroOpBufferSize;
  DispatchWidth = std::max(1u, SM.IssueWidth);
  MispredictPenalty = SM.MispredictPenalty;
  LoadLatency = SM.LoadLatency;
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
  // copies for spills and reloads on the load and store ports looks like a gain. The
  // target says which moves the cores rename (FlowTarget::renamesMove).
  if (!MovesEliminated) {
    MovesEliminated = DispatchWidth;
    RenamesUndeclaredMoves = true;
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
  for (FramePointer F : {StackPointer, FramePointerReg})
    FrameRegisters[F] = Hooks->frameRegister(F);
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
  Hooks->correct(Inst, *D);
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
  if (RenamesUndeclaredMoves && D->Writes.size() == 1 && Hooks->renamesMove(Inst))
    D->MovesRegister = true;
  const llvm::MCInstrDesc &Opcode = Target.instrInfo().get(Inst.getOpcode());
  D->Branches = (Opcode.isBranch() || Opcode.isCall()) && !Opcode.isReturn();
  D->Fuses = Opcode.isConditionalBranch();
  followFrame(Inst, *D, Reads);
  // The core's store throughput (CoreProfile::StoresPerCycle): a plain store holds
  // each resource no longer than lets that many through a cycle. Zen 4's model holds
  // one of two store units and the load-store unit for 2 cycles; Zen 5 issues two (a
  // calibrated profile says so; the built-in one does not: docs/calibrate.md).
  if (D->PlainStore && Profile.StoresPerCycle)
    for (FlowResourceUse &Use : D->Resources)
      if (!Use.Reserved) {
        unsigned Most = std::max(1u, unsigned(llvm::popcount(Use.Lanes)) / *Profile.StoresPerCycle);
        Use.Cycles = std::min<uint16_t>(Use.Cycles, Most);
      }
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

/// What \p Inst does to the frames, as its target recognizes it (FlowTarget::followFrame),
/// and what follows: the stack engine, and frame registers given unknown values.
void FlowModel::followFrame(const llvm::MCInst &Inst, FlowInstruction &D,
                            llvm::MutableArrayRef<FlowRead> Reads) const {
  const llvm::MCRegisterInfo &MRI = Target.registerInfo();
  llvm::SmallVector<llvm::MCPhysReg, 2> AddressRegisters;
  Hooks->followFrame(Inst, D, AddressRegisters);
  for (llvm::MCPhysReg Register : AddressRegisters)
    for (uint16_t Unit : units(Register))
      D.AddressUnits.push_back(Unit);

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
  D.DataLoad = isDataLoad(Inst, Target.instrInfo(), FrameRegisters[StackPointer]);
  D.TouchesFrame = D.Stack != StackEffect::None ||
                   (D.Slot != NoPointer && (D.MayLoad || D.MayStore)) ||
                   D.MovesFrameTo != NoPointer || D.ClobbersFrame;
}

} // namespace mlgo
