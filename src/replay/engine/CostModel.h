/// \file
/// What replay asks of a way to predict cycles: take the refilled trace as a sink, then
/// give the cycles, in all and per function. Exact replay simulates every instruction
/// (ExactModel.h).
#pragma once

#include "replay/engine/InstructionProfile.h"
#include "replay/refill/Refill.h"

#include "llvm/Support/Error.h"
#include <cstdint>
#include <map>
#include <vector>

namespace mlgo {

struct PredictedCosts {
  uint64_t Cycles = 0;       ///< summed over threads
  uint64_t Instructions = 0; ///< modeled: every instruction the refill handed over
  uint32_t Threads = 0;
  /// Per function (RefilledCode::Function): cycles and instructions.
  std::vector<uint64_t> FunctionCycles, FunctionInstructions;
  /// Instructions MCA simulated (warm-ups included).
  uint64_t Simulated = 0;
  /// Of a replay on a trace shard: the estimated standard error of Cycles.
  double SamplingError = 0;
  /// Of an exact replay that records them (a reference): per thread, the cycles of
  /// each event (by RefilledCode::Event).
  std::map<uint32_t, std::vector<uint32_t>> EventCycles;
  /// Of an exact replay that records it (ReplayOptions::ProfileInstructions): the
  /// cycles and executions of each instruction.
  InstructionProfile Profile;
};

class CostModel : public RefillSink {
public:
  /// Ends every thread's stream; called once, after the refill.
  virtual llvm::Expected<PredictedCosts> finish() = 0;
};

} // namespace mlgo
