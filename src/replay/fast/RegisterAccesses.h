/// \file
/// The registers each instruction of a code reads and writes, as MCA's dependencies see
/// them: by family (the largest register containing it, RAX for EAX or AH) and place in
/// the family (its sub-register index), so that code can be compared up to register names.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include <vector>

namespace mlgo {

struct RegisterAccess {
  enum Kind : uint8_t {
    Read,
    Write,
    /// A write that keeps the rest of its family (AL, or an SSE write to XMM0 within
    /// ZMM0): the family's older value lives on, so it is also a read.
    PartialWrite,
  };
  uint16_t Family;
  uint16_t SubIndex; ///< 0: the whole family
  Kind How;
};

/// One code's accesses, instruction by instruction: reads before writes.
struct RegisterAccesses {
  std::vector<RegisterAccess> Accesses;
  /// Instruction I's accesses are [Begin[I], Begin[I + 1]).
  std::vector<uint32_t> Begin;
  /// Per family the code writes, the last instruction writing it.
  std::vector<std::pair<uint16_t, uint32_t>> LastWrites;

  uint32_t instructions() const { return Begin.size() - 1; }
};

/// Builds RegisterAccesses for one target.
class RegisterAccessReader {
public:
  RegisterAccessReader(const llvm::MCRegisterInfo &RegisterInfo,
                       const llvm::MCInstrInfo &InstrInfo,
                       const llvm::MCInstrAnalysis *InstrAnalysis);

  RegisterAccesses read(llvm::ArrayRef<llvm::MCInst> Code) const;
  unsigned numRegisters() const { return Families.size(); }
  uint16_t family(llvm::MCRegister Register) const { return Families[Register.id()]; }

private:
  void add(RegisterAccesses &Out, llvm::MCRegister Register, RegisterAccess::Kind How) const;

  const llvm::MCRegisterInfo &RegisterInfo;
  const llvm::MCInstrInfo &InstrInfo;
  const llvm::MCInstrAnalysis *InstrAnalysis;
  std::vector<uint16_t> Families, SubIndices; ///< per register
};

} // namespace mlgo
