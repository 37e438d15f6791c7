/// \file
/// Whether two pieces of code are the same to MCA: same opcodes and registers, and the
/// same immediates except where they only locate code or data (branch and call targets,
/// pc-relative displacements), which differ between a linked binary and objects, and
/// between variants, where the code itself is the same.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegister.h"

namespace mlgo {

class SameTiming {
public:
  SameTiming(const llvm::MCInstrInfo &InstrInfo, llvm::MCRegister ProgramCounter)
      : InstrInfo(InstrInfo), ProgramCounter(ProgramCounter) {}

  /// Whether \p A and \p B time alike; remembered by address, so both must stay put.
  bool operator()(llvm::ArrayRef<llvm::MCInst> A, llvm::ArrayRef<llvm::MCInst> B);

private:
  bool sameInstruction(const llvm::MCInst &A, const llvm::MCInst &B) const;

  const llvm::MCInstrInfo &InstrInfo;
  llvm::MCRegister ProgramCounter;
  using Key = std::pair<std::pair<const void *, size_t>, std::pair<const void *, size_t>>;
  llvm::DenseMap<Key, bool> Known;
};

} // namespace mlgo
