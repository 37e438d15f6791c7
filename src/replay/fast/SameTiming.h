/// \file
/// Whether two pieces of code are the same to MCA: same opcodes, and the same
/// immediates except where they only locate code or data (branch and call targets,
/// pc-relative displacements, the addresses of loads and stores), which differ between
/// a linked binary and objects, and between variants, where the code itself is the same. Code that differs only by its
/// register names is alike: whether it times alike depends on which values its
/// registers hold (RegisterPairing.h).
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegister.h"
#include <vector>

namespace mlgo {

enum class CodeMatch : uint8_t {
  Same,      ///< the same instructions
  Renamed,   ///< the same instructions but for register names
  Different,
};

class SameTiming {
public:
  /// With \p AddressesMatter, loads and stores must also access the same addresses
  /// (displacements): the flow engine pairs a reload with the store to its stack slot.
  SameTiming(const llvm::MCInstrInfo &InstrInfo, llvm::MCRegister ProgramCounter,
             bool AddressesMatter = false)
      : InstrInfo(InstrInfo), ProgramCounter(ProgramCounter),
        AddressesMatter(AddressesMatter) {}

  /// How \p A compares with \p B.
  CodeMatch operator()(llvm::ArrayRef<llvm::MCInst> A, llvm::ArrayRef<llvm::MCInst> B) const;

  /// The most instructions of \p A and \p B that match in order (same but for register
  /// names), as pairs of indices: where differing code still computes the same values.
  std::vector<std::pair<uint32_t, uint32_t>> align(llvm::ArrayRef<llvm::MCInst> A,
                                                   llvm::ArrayRef<llvm::MCInst> B) const;

private:
  CodeMatch compareInstructions(const llvm::MCInst &A, const llvm::MCInst &B) const;

  const llvm::MCInstrInfo &InstrInfo;
  llvm::MCRegister ProgramCounter;
  bool AddressesMatter;
};

} // namespace mlgo
