/// \file
/// Data loads: the loads that a recorded trace keeps load dependences for (trace record,
/// LoadDependences in trace/SegmentTrace.h) and that replay matches between the traced
/// binary and a variant by their order in a segment.
#pragma once

#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegister.h"

namespace mlgo {

/// Whether \p Inst loads data: it may load and not store, is not a push, pop, call,
/// return or leave, and its memory operand's base is not \p StackPointer. Register
/// allocation adds and removes only loads from [rsp + c] (reloads, in code without a
/// frame pointer), so a segment's data loads are the same, in the same order, in every
/// variant built without frame pointers.
bool isDataLoad(const llvm::MCInst &Inst, const llvm::MCInstrInfo &MII,
                llvm::MCRegister StackPointer);

} // namespace mlgo
