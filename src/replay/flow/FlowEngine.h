/// \file
/// The flow engine: cores (FlowSimulator.h) that share one FlowModel.
#pragma once

#include "replay/engine/CoreProfile.h"
#include "replay/engine/CoreSimulator.h"
#include "replay/engine/McaTarget.h"
#include "replay/flow/FlowModel.h"
#include "replay/flow/FlowSimulator.h"
#include "replay/flow/FlowTarget.h"
#include "replay/refill/LoadWaits.h"

#include "llvm/Support/Error.h"
#include <memory>

namespace mlgo {

/// Cores timed by the flow engine; they share one FlowModel.
class FlowEngine : public Engine {
public:
  /// \p Hooks: what the engine knows of Target's instructions beyond its scheduling
  /// model (target/FlowTargets.h).
  static llvm::Expected<std::unique_ptr<Engine>> create(std::unique_ptr<McaTarget> Target,
                                                        std::unique_ptr<FlowTarget> Hooks,
                                                        LoadWaits Waits = {},
                                                        CoreProfile Profile = {});
  std::unique_ptr<CoreSimulator> startCore(uint32_t NumFunctions) override {
    return std::make_unique<FlowSimulator>(*Model, NumFunctions, &Waits);
  }

private:
  FlowEngine(std::unique_ptr<McaTarget> Target) : Engine(EngineKind::Flow, std::move(Target)) {}
  std::unique_ptr<FlowModel> Model;
  LoadWaits Waits;
};

} // namespace mlgo
