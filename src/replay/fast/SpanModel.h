/// \file
/// Fast replay, the default: a variant's cycles are its reference's exact cycles plus,
/// for every span where their code differs (SpanPlan.h), the variant's simulated cycles
/// minus the reference's recorded ones over that span. Spans are simulated in batches
/// on Jobs threads.
#pragma once

#include "replay/engine/CoreSimulator.h"
#include "replay/engine/CostModel.h"
#include "replay/fast/SpanPlan.h"

#include <map>
#include <memory>

namespace mlgo {

class SpanModel : public CostModel {
public:
  /// \p Reference: the exact costs, with event cycles, of the reference that the
  /// refill pairs the code with.
  SpanModel(Engine &Cores, uint32_t NumFunctions, const SpanSettings &Settings,
            unsigned Jobs, const PredictedCosts &Reference);
  ~SpanModel() override;

  llvm::Error onCode(uint32_t ThreadId, const RefilledCode &Code) override {
    if (llvm::Error E = Planner.onCode(ThreadId, Code))
      return E;
    return Planner.pendingInstructions() >= BatchInstructions ? simulatePlanned()
                                                              : llvm::Error::success();
  }
  void onSkip(uint32_t ThreadId, uint64_t Event) override {
    Planner.onSkip(ThreadId, Event);
  }
  llvm::Expected<PredictedCosts> finish() override;

private:
  /// Span instructions planned before they are simulated: enough to keep the threads
  /// busy, few enough to keep memory small.
  static constexpr uint64_t BatchInstructions = 1 << 20;

  /// What one span changes, per function it touches: variant minus reference.
  struct Delta {
    uint32_t Function;
    int64_t Cycles, Instructions;
  };

  llvm::Error simulatePlanned();
  /// One standard error of the sampled differences' sum (0 without sampling).
  double samplingError() const;
  llvm::Error simulate(const Span &S, std::vector<Delta> &Out) const;

  Engine &Cores;
  uint32_t NumFunctions;
  SpanPlanner Planner;
  unsigned Jobs;
  const PredictedCosts &Reference;
  std::vector<int64_t> Cycles, Instructions; ///< per function: variant - reference
  uint64_t Simulated = 0;
  /// With sampling: per window that has spans (thread, ordinal / EVERY), the cycles
  /// its spans add; the spread of these gives the estimate's standard error.
  std::map<std::pair<uint32_t, uint64_t>, int64_t> WindowCycles;
};

} // namespace mlgo
