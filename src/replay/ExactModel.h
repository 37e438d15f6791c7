/// \file
/// Exact replay: every refilled instruction streams through the engine, each thread of
/// the trace on its own simulated core. Also the reference fast replay is measured
/// against.
#pragma once

#include "CostModel.h"
#include "CoreSimulator.h"

#include <map>
#include <memory>

namespace mlgo {

class ExactModel : public CostModel {
public:
  /// \p RecordEvents: also the cycles of every event (a reference's, for fast replay).
  ExactModel(Engine &Cores, uint32_t NumFunctions, bool RecordEvents)
      : Cores(Cores), NumFunctions(NumFunctions), RecordEvents(RecordEvents) {}

  llvm::Error onCode(uint32_t ThreadId, const RefilledCode &Code) override;
  llvm::Expected<PredictedCosts> finish() override;

private:
  Engine &Cores;
  uint32_t NumFunctions;
  bool RecordEvents;
  std::map<uint32_t, std::unique_ptr<CoreSimulator>> Threads; ///< by thread id
  std::map<uint32_t, std::vector<uint32_t>> EventCycles;
  uint32_t LastThread = 0;
  CoreSimulator *Last = nullptr;
};

} // namespace mlgo
