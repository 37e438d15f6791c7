/// \file
/// Where an instruction's memory operand is among its MC operands.
#pragma once

#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrDesc.h"
#include <optional>

namespace mlgo {

/// The index of \p Inst's first memory operand, whose five MC operands (x86: base,
/// scale, index, displacement, segment) start there; none if it has none.
inline std::optional<unsigned> memoryOperand(const llvm::MCInst &Inst,
                                             const llvm::MCInstrDesc &Desc) {
  for (unsigned I = 0; I < Desc.getNumOperands() && I + 4 < Inst.getNumOperands(); ++I)
    if (Desc.operands()[I].OperandType == llvm::MCOI::OPERAND_MEMORY)
      return I;
  return std::nullopt;
}

} // namespace mlgo
