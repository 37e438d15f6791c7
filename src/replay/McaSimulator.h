/// \file
/// LLVM MCA as a streaming CPU model. Instructions are added as the trace is refilled;
/// the pipeline runs whenever a batch is ready and pauses when it runs dry
/// (IncrementalSourceMgr), and mca::Instructions are recycled, so memory stays bounded
/// whatever the trace length. Each retired instruction's cycles are attributed to its
/// function.
#pragma once

#include "Refill.h"

#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <vector>

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
/// Used by one McaSimulator at a time.
class McaInstructionBuilder {
public:
  explicit McaInstructionBuilder(const McaTarget &Target);
  ~McaInstructionBuilder();

private:
  friend class McaSimulator;
  struct Impl;
  std::unique_ptr<Impl> I;
};

/// One simulated core running one stream of instructions.
class McaSimulator {
public:
  /// \p NumFunctions sizes the per-function attribution; a "function" is whatever the
  /// caller tags code with (RefilledCode::Function). \p Builder must outlive the
  /// simulator and serve no other simulator meanwhile.
  McaSimulator(const McaTarget &Target, McaInstructionBuilder &Builder,
               uint32_t NumFunctions);
  ~McaSimulator();

  /// Also adds the cycles of each retired instruction to \p Costs[its code's Event]
  /// (growing it as needed), from now on.
  void recordEventCycles(std::vector<uint32_t> &Costs) { EventCycles = &Costs; }

  /// Queues the instructions of \p Code, simulating whenever a batch is full.
  llvm::Error add(const RefilledCode &Code);
  /// Ends the stream and simulates until the last instruction retires.
  llvm::Error finish();

  uint64_t cycles() const { return Cycles; }
  uint64_t instructions() const { return Retired; }
  /// Cycles per function: each retired instruction gets the cycles since the previous
  /// retirement, so they add up to cycles().
  const std::vector<uint64_t> &cyclesByFunction() const { return FunctionCycles; }
  const std::vector<uint64_t> &instructionsByFunction() const {
    return FunctionInstructions;
  }

private:
  struct Impl;
  class RetireListener;
  llvm::Error run();
  void onCycleEnd() { ++Cycles; }
  void onRetire();
  void attributeToEvent(uint64_t Event, uint64_t Cycles);

  std::unique_ptr<Impl> I;
  llvm::MCRegister StackPointer;
  uint64_t Cycles = 0, Retired = 0, Attributed = 0;
  uint32_t LastRetiredFunction = 0;
  uint64_t LastRetiredEvent = 0;
  std::vector<uint32_t> *EventCycles = nullptr;
  uint32_t Pending = 0; ///< instructions added since the pipeline last ran
  uint32_t Created = 0; ///< new (not recycled) instructions in the source
  std::vector<uint64_t> FunctionCycles, FunctionInstructions;
};

} // namespace mlgo
