/// \file
/// Cycle attribution shared by both engines.
#include "replay/engine/CoreSimulator.h"
#include "replay/engine/McaTarget.h"

#include <algorithm>

namespace mlgo {

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

} // namespace mlgo
