/// \file
/// Cycles per instruction over a trace (replay --explain): which instructions of a
/// function the predicted cycles went to, and how often each ran. Recorded by exact
/// replays that ask for it (ReplayOptions::ProfileInstructions), from the order in which
/// a core retires what it was given.
#pragma once

#include "replay/engine/CoreSimulator.h"

#include "llvm/ADT/DenseMap.h"
#include <cstdint>
#include <deque>
#include <vector>

namespace mlgo {

struct InstructionCost {
  uint64_t Cycles = 0;     ///< attributed as to functions: since the previous retirement
  uint64_t Executions = 0;
};

/// Per function (RefilledCode::Function): by instruction address in the image its code
/// came from.
using InstructionProfile = std::vector<llvm::DenseMap<uint64_t, InstructionCost>>;

/// Adds \p From into \p Into (the profiles of several threads).
void mergeProfile(InstructionProfile &Into, const InstructionProfile &From);

/// The profile of one core: remembers what was added until it retires.
class InstructionAttribution {
public:
  /// Starts recording \p Core's retirements; \p NumFunctions as the core's.
  InstructionAttribution(CoreSimulator &Core, uint32_t NumFunctions);

  /// \p Code was added to the core: attributes what retired so far.
  void added(const RefilledCode &Code);
  /// The core finished: attributes the rest, and the cycles after the last retirement
  /// to the last instruction (as CoreSimulator does for functions).
  void finished();

  /// The costs attributed so far.
  InstructionProfile profile() const;

private:
  void attributeRetired();

  CoreSimulator &Core;
  std::vector<uint32_t> Retired; ///< cycles of instructions retired, not yet attributed
  /// Where each added instruction's costs go, in order; from Next on not yet retired.
  std::vector<InstructionCost *> Unretired;
  size_t Next = 0;
  /// The costs, at stable addresses, found by function and address.
  std::deque<InstructionCost> Costs;
  std::vector<llvm::DenseMap<uint64_t, InstructionCost *>> ByAddress;
  uint64_t Attributed = 0; ///< cycles attributed so far
  InstructionCost *Last = nullptr;
};

} // namespace mlgo
