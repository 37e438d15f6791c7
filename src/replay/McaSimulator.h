/// \file
/// LLVM MCA as a streaming CPU model. Instructions are added as the trace is refilled;
/// the pipeline runs whenever a batch is ready and pauses when it runs dry
/// (IncrementalSourceMgr), and mca::Instructions are recycled, so memory stays bounded
/// whatever the trace length. Each retired instruction's cycles are attributed to its
/// function.
#pragma once

#include "CoreSimulator.h"

#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <mutex>
#include <vector>

namespace llvm::mca {
class Instruction;
}

namespace mlgo {

/// The MC objects that describe one CPU of one target; shared by simulators.
class McaTarget {
public:
  /// Fails with an InputError for an unknown triple, an unknown CPU, or a CPU without a
  /// scheduling model.
  /// With \p StackEngine, x86's push, pop, call and ret do not wait for one another's
  /// stack pointer, as on the hardware (see applyStackEngine).
  static llvm::Expected<std::unique_ptr<McaTarget>>
  create(llvm::StringRef Triple, llvm::StringRef CPU, bool StackEngine = false);
  const llvm::Target &target() const { return *T; }
  const llvm::MCSubtargetInfo &subtarget() const { return *STI; }
  const llvm::MCInstrInfo &instrInfo() const { return *MCII; }
  const llvm::MCRegisterInfo &registerInfo() const { return *MRI; }
  const llvm::MCInstrAnalysis *instrAnalysis() const { return MCIA.get(); }
  /// With the stack engine, x86's stack pointer (push, pop, call and ret use it
  /// implicitly); else none.
  llvm::MCRegister stackPointer() const { return StackPointer; }

private:
  const llvm::Target *T = nullptr;
  std::unique_ptr<llvm::MCRegisterInfo> MRI;
  std::unique_ptr<llvm::MCSubtargetInfo> STI;
  std::unique_ptr<llvm::MCInstrInfo> MCII;
  std::unique_ptr<llvm::MCInstrAnalysis> MCIA;
  llvm::MCRegister StackPointer;
};

/// Turns MCInsts into mca::Instructions for one CPU, computing each opcode's descriptor
/// once: long-lived, so that the many short simulations of fast replay share that work.
/// Used by one McaSimulator (or one FlowEngine) at a time.
class McaInstructionBuilder {
public:
  explicit McaInstructionBuilder(const McaTarget &Target);
  ~McaInstructionBuilder();

  /// A new mca::Instruction for \p Inst (never a recycled one).
  llvm::Expected<std::unique_ptr<llvm::mca::Instruction>> create(const llvm::MCInst &Inst);

private:
  friend class McaSimulator;
  struct Impl;
  std::unique_ptr<Impl> I;
};

/// LLVM MCA's pipeline as a CoreSimulator.
class McaSimulator : public CoreSimulator {
public:
  /// \p Builder must outlive the simulator and serve no other simulator meanwhile.
  McaSimulator(const McaTarget &Target, McaInstructionBuilder &Builder,
               uint32_t NumFunctions);
  ~McaSimulator() override;

  /// Queues the instructions of \p Code, simulating whenever a batch is full.
  llvm::Error add(const RefilledCode &Code) override;
  /// Ends the stream and simulates until the last instruction retires.
  llvm::Error finish() override;

private:
  friend class McaEngine;
  struct Impl;
  class RetireListener;
  llvm::Error run();
  void onCycleEnd() { ++Elapsed; }
  void onRetire();

  std::unique_ptr<Impl> I;
  llvm::MCRegister StackPointer;
  uint64_t Elapsed = 0;
  uint32_t Pending = 0; ///< instructions added since the pipeline last ran
  uint32_t Created = 0; ///< new (not recycled) instructions in the source
  /// With a core of McaEngine: the builder it lent, given back at the end.
  class McaEngine *Lender = nullptr;
  std::unique_ptr<McaInstructionBuilder> Borrowed;
};

/// Cores that are MCA pipelines; each borrows an instruction builder from a pool, so
/// that the many short simulations of fast replay share their descriptors.
class McaEngine : public Engine {
public:
  explicit McaEngine(std::unique_ptr<McaTarget> Target)
      : Engine(EngineKind::Mca, std::move(Target)) {}
  std::unique_ptr<CoreSimulator> startCore(uint32_t NumFunctions) override;

private:
  friend class McaSimulator;
  void giveBack(std::unique_ptr<McaInstructionBuilder> Builder);

  std::mutex Lock;
  std::vector<std::unique_ptr<McaInstructionBuilder>> Idle;
};

} // namespace mlgo
