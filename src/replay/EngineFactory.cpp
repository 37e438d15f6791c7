/// \file
/// Choosing an engine.
#include "detail/EngineFactory.h"
#include "replay/engine/McaTarget.h"
#include "replay/flow/FlowEngine.h"
#include "replay/mca/McaSimulator.h"
#include "replay/target/FlowTargets.h"

namespace mlgo {

llvm::Expected<std::unique_ptr<Engine>> createEngine(EngineKind Kind, llvm::StringRef Triple,
                                                     llvm::StringRef CPU, bool StackEngine,
                                                     LoadWaits Waits, CoreProfile Profile) {
  // The flow engine models the stack engine itself, on x86 always.
  auto Target = McaTarget::create(Triple, CPU, Kind == EngineKind::Mca && StackEngine);
  if (!Target)
    return Target.takeError();
  if (Kind == EngineKind::Mca)
    return std::make_unique<McaEngine>(std::move(*Target));
  auto Hooks = createFlowTarget(**Target);
  if (!Hooks)
    return Hooks.takeError();
  return FlowEngine::create(std::move(*Target), std::move(*Hooks), std::move(Waits),
                            std::move(Profile));
}

} // namespace mlgo
