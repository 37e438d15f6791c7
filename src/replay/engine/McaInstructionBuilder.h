/// \file
/// LLVM MCA's description of each instruction for one CPU (mca::InstrBuilder), which
/// both engines time instructions from.
#pragma once

#include "replay/engine/McaTarget.h"

#include "llvm/MC/MCInst.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <memory>

namespace llvm::mca {
class Instruction;
struct InstrDesc;
} // namespace llvm::mca

namespace mlgo {

/// Turns MCInsts into mca::Instructions for one CPU, computing each opcode's descriptor
/// once: long-lived, so that the many short simulations of fast replay share that work.
/// Used by one McaSimulator (or one FlowEngine) at a time.
class McaInstructionBuilder {
public:
  explicit McaInstructionBuilder(const McaTarget &Target);
  ~McaInstructionBuilder();

  /// A new mca::Instruction for \p Inst; with a recycler, a RecycledInstErr may give
  /// one of its instructions instead.
  llvm::Expected<std::unique_ptr<llvm::mca::Instruction>> create(const llvm::MCInst &Inst);

  /// Gives an instruction of a descriptor that the pipeline is done with, or null
  /// (mca::InstrBuilder::InstRecycleCallback).
  using Recycler = std::function<llvm::mca::Instruction *(const llvm::mca::InstrDesc &)>;
  /// From now on create() reuses what \p Recycle gives.
  void recycleWith(Recycler Recycle);

private:
  struct Impl;
  std::unique_ptr<Impl> I;
};

} // namespace mlgo
