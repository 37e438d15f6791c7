/// \file
/// The flow engine's knowledge of each target it models (flow/FlowTarget.h).
#pragma once

#include "replay/engine/McaTarget.h"
#include "replay/flow/FlowTarget.h"

#include "llvm/Support/Error.h"
#include <memory>

namespace mlgo {

/// The flow engine's hooks for \p Target's CPU; fails for a target the flow engine
/// does not model (x86-64 only).
llvm::Expected<std::unique_ptr<FlowTarget>> createFlowTarget(const McaTarget &Target);

} // namespace mlgo
