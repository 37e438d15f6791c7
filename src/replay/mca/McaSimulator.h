/// \file
/// LLVM MCA as a streaming CPU model. Instructions are added as the trace is refilled;
/// the pipeline runs whenever a batch is ready and pauses when it runs dry
/// (IncrementalSourceMgr), and mca::Instructions are recycled, so memory stays bounded
/// whatever the trace length. Each retired instruction's cycles are attributed to its
/// function.
#pragma once

#include "replay/engine/CoreSimulator.h"
#include "replay/engine/McaInstructionBuilder.h"
#include "replay/engine/McaTarget.h"

#include "llvm/Support/Error.h"
#include <memory>
#include <mutex>
#include <vector>

namespace mlgo {

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
