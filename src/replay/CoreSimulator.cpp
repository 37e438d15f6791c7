/// \file
/// Cycle attribution shared by both engines, and choosing an engine.
#include "CoreSimulator.h"
#include "FlowSimulator.h"
#include "McaSimulator.h"

#include <algorithm>

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

CoreSimulator::~CoreSimulator() = default;

void CoreSimulator::ended(uint64_t Total) {
  Cycles = Total;
  if (Retired && Attributed < Total) {
    FunctionCycles[LastFunction] += Total - Attributed;
    if (EventCycles)
      attributeToEvent(LastEvent, Total - Attributed);
    Attributed = Total;
  }
}

void CoreSimulator::attributeToEvent(uint64_t Event, uint64_t Cycles) {
  Event -= FirstRecorded;
  if (EventCycles->size() <= Event)
    EventCycles->resize(std::max<size_t>(Event + 1, EventCycles->size() * 2));
  (*EventCycles)[Event] += Cycles;
}

Engine::Engine(EngineKind Kind, std::unique_ptr<McaTarget> Target)
    : Kind(Kind), Target(std::move(Target)) {}

Engine::~Engine() = default;

llvm::Expected<std::unique_ptr<Engine>> Engine::create(EngineKind Kind, llvm::StringRef Triple,
                                                       llvm::StringRef CPU,
                                                       bool StackEngine,
                                                       LoadWaits Waits,
                                                       CoreProfile Profile) {
  // The flow engine models the stack engine itself, on x86 always.
  auto Target = McaTarget::create(Triple, CPU, Kind == EngineKind::Mca && StackEngine);
  if (!Target)
    return Target.takeError();
  if (Kind == EngineKind::Mca)
    return std::make_unique<McaEngine>(std::move(*Target));
  return FlowEngine::create(std::move(*Target), std::move(Waits), std::move(Profile));
}

} // namespace mlgo
