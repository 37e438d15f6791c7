/// \file
/// Making the engine that replay options name: the one place that knows both engines.
#pragma once

#include "replay/engine/CoreProfile.h"
#include "replay/engine/CoreSimulator.h"
#include "replay/engine/EngineKind.h"
#include "replay/refill/LoadWaits.h"

#include "llvm/Support/Error.h"
#include <memory>

namespace mlgo {

/// An engine of \p Kind for \p CPU of \p Triple. With \p StackEngine, x86's push, pop,
/// call and ret do not wait for one another's stack pointer (the flow engine always
/// models it). The flow engine's data loads wait for older stores as \p Waits says
/// (without: all of them, or none where \p Profile speculates), and it applies
/// \p Profile's rules (MCA ignores them).
llvm::Expected<std::unique_ptr<Engine>> createEngine(EngineKind Kind, llvm::StringRef Triple,
                                                     llvm::StringRef CPU, bool StackEngine,
                                                     LoadWaits Waits = {},
                                                     CoreProfile Profile = {});

} // namespace mlgo
