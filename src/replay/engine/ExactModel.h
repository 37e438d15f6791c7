/// \file
/// Exact replay: every refilled instruction streams through the engine, each thread of
/// the trace on its own simulated core. Also the reference fast replay is measured
/// against.
#pragma once

#include "replay/engine/CoreSimulator.h"
#include "replay/engine/CostModel.h"
#include "replay/engine/InstructionProfile.h"

#include <map>
#include <memory>

namespace mlgo {

class ExactModel : public CostModel {
public:
  /// \p RecordEvents: also the cycles of every event (a reference's, for fast replay);
  /// \p ProfileInstructions: of every instruction (PredictedCosts::Profile).
  ExactModel(Engine &Cores, uint32_t NumFunctions, bool RecordEvents,
             bool ProfileInstructions = false)
      : Cores(Cores), NumFunctions(NumFunctions), RecordEvents(RecordEvents),
        ProfileInstructions(ProfileInstructions) {}

  llvm::Error onCode(uint32_t ThreadId, const RefilledCode &Code) override;
  llvm::Expected<PredictedCosts> finish() override;

private:
  /// Makes the core of \p ThreadId the one code goes to, started if new.
  void switchTo(uint32_t ThreadId);

  Engine &Cores;
  uint32_t NumFunctions;
  bool RecordEvents, ProfileInstructions;
  std::map<uint32_t, std::unique_ptr<CoreSimulator>> Threads; ///< by thread id
  std::map<uint32_t, std::vector<uint32_t>> EventCycles;
  std::map<uint32_t, std::unique_ptr<InstructionAttribution>> Attributions;
  uint32_t LastThread = 0;
  CoreSimulator *Last = nullptr;
  InstructionAttribution *LastAttribution = nullptr;
};

} // namespace mlgo
