/// \file
/// The replay engines (CoreSimulator.h): LLVM MCA's pipeline, the reference, and the
/// flow engine, which times the instruction stream in one pass.
#pragma once

#include "llvm/ADT/StringRef.h"
#include <optional>

namespace mlgo {

enum class EngineKind { Mca, Flow };

/// "mca" or "flow", as --engine spells it.
const char *engineName(EngineKind Kind);
std::optional<EngineKind> parseEngineName(llvm::StringRef Name);

} // namespace mlgo
