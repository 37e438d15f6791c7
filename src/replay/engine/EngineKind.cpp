/// \file
/// The engines' names, as --engine spells them.
#include "replay/engine/EngineKind.h"

namespace mlgo {

const char *engineName(EngineKind Kind) {
  return Kind == EngineKind::Mca ? "mca" : "flow";
}

std::optional<EngineKind> parseEngineName(llvm::StringRef Name) {
  if (Name == "mca")
    return EngineKind::Mca;
  if (Name == "flow")
    return EngineKind::Flow;
  return std::nullopt;
}

} // namespace mlgo
