/// \file
/// Exact replay (replay --exact): every refilled instruction streams through MCA, each
/// thread of the trace on its own simulated core. The reference fast replay is
/// measured against.
#pragma once

#include "CostModel.h"
#include "McaSimulator.h"

#include <map>
#include <memory>

namespace mlgo {

class ExactModel : public CostModel {
public:
  /// \p RecordEvents: also the cycles of every event (a reference's, for fast replay).
  ExactModel(const McaTarget &Target, uint32_t NumFunctions, bool RecordEvents)
      : Target(Target), NumFunctions(NumFunctions), RecordEvents(RecordEvents) {}

  llvm::Error onCode(uint32_t ThreadId, const RefilledCode &Code) override;
  llvm::Expected<PredictedCosts> finish() override;

private:
  struct Core {
    std::unique_ptr<McaInstructionBuilder> Builder;
    std::unique_ptr<McaSimulator> Sim;
  };
  const McaTarget &Target;
  uint32_t NumFunctions;
  bool RecordEvents;
  std::map<uint32_t, Core> Cores; ///< by thread id
  std::map<uint32_t, std::vector<uint32_t>> EventCycles;
  uint32_t LastThread = 0;
  McaSimulator *Last = nullptr;
};

} // namespace mlgo
