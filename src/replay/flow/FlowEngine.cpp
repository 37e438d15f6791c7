/// \file
/// Making a flow engine's shared model.
#include "replay/flow/FlowEngine.h"

namespace mlgo {

llvm::Expected<std::unique_ptr<Engine>> FlowEngine::create(std::unique_ptr<McaTarget> Target,
                                                           std::unique_ptr<FlowTarget> Hooks,
                                                           LoadWaits Waits, CoreProfile Profile) {
  auto Model = FlowModel::create(*Target, std::move(Hooks), std::move(Profile));
  if (!Model)
    return Model.takeError();
  std::unique_ptr<FlowEngine> E(new FlowEngine(std::move(Target)));
  E->Model = std::move(*Model);
  E->Waits = std::move(Waits);
  return E;
}

} // namespace mlgo
