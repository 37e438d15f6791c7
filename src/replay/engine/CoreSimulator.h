/// \file
/// What replay's cost models ask of a CPU model: a simulated core that takes one
/// thread's refilled instructions in order and gives their cycles, in all and per
/// function. An Engine makes cores; there are two: LLVM MCA's pipeline
/// (mca/McaSimulator.h, the reference) and the flow engine (flow/FlowSimulator.h), which
/// times the stream in one pass from the same scheduling-model data. The stage picks one
/// (detail/EngineFactory.h).
#pragma once

#include "replay/engine/EngineKind.h"
#include "replay/refill/Refill.h"

#include "llvm/Support/Error.h"
#include <cassert>
#include <cstdint>
#include <memory>
#include <vector>

namespace mlgo {

class McaTarget;

/// One simulated core running one stream of instructions.
class CoreSimulator {
public:
  explicit CoreSimulator(uint32_t NumFunctions)
      : FunctionCycles(NumFunctions), FunctionInstructions(NumFunctions) {}
  virtual ~CoreSimulator();

  /// Queues (or times) the instructions of \p Code.
  virtual llvm::Error add(const RefilledCode &Code) = 0;
  /// Ends the stream: every instruction has retired.
  virtual llvm::Error finish() = 0;

  /// Also adds the cycles of each retired instruction to \p Costs[its code's Event -
  /// \p FirstEvent] (growing it as needed), from now on; no event before FirstEvent
  /// may follow.
  void recordEventCycles(std::vector<uint32_t> &Costs, uint64_t FirstEvent = 0) {
    EventCycles = &Costs;
    FirstRecorded = FirstEvent;
  }
  /// Also appends the cycles of each retired instruction to \p Costs, from now on:
  /// instructions retire in the order they were added, so the caller, who empties it
  /// as it likes, knows which is which. Those after the last retirement are not in it
  /// (the rest of cycles()).
  void recordInstructionCycles(std::vector<uint32_t> &Costs) { InstructionCycles = &Costs; }

  uint64_t cycles() const { return Cycles; }
  uint64_t instructions() const { return Retired; }
  /// Cycles per function: each retired instruction gets the cycles since the previous
  /// retirement, so they add up to cycles().
  const std::vector<uint64_t> &cyclesByFunction() const { return FunctionCycles; }
  const std::vector<uint64_t> &instructionsByFunction() const {
    return FunctionInstructions;
  }

protected:
  /// \p Count instructions of \p Function and \p Event retired, the last when \p Elapsed
  /// cycles had passed since the stream began (retirements come in order, Elapsed
  /// never decreasing). Each instruction gets the cycles since the one before, so
  /// those of one event may be handed over together.
  void retired(uint32_t Function, uint64_t Event, uint64_t Elapsed, uint64_t Count = 1) {
    assert((Count == 1 || !InstructionCycles) && "instruction cycles are one at a time");
    Retired += Count;
    FunctionInstructions[Function] += Count;
    FunctionCycles[Function] += Elapsed - Attributed;
    if (EventCycles)
      attributeToEvent(Event, Elapsed - Attributed);
    if (InstructionCycles)
      InstructionCycles->push_back(uint32_t(Elapsed - Attributed));
    LastFunction = Function;
    LastEvent = Event;
    Attributed = Elapsed;
  }
  /// Whether retirements must be handed over one instruction at a time
  /// (recordInstructionCycles).
  bool recordsInstructionCycles() const { return InstructionCycles; }
  /// The stream ended after \p Total cycles: those after the last retirement go to
  /// the last retired instruction.
  void ended(uint64_t Total);

  uint64_t Cycles = 0;

private:
  void attributeToEvent(uint64_t Event, uint64_t Cycles);

  uint64_t Retired = 0, Attributed = 0;
  uint32_t LastFunction = 0;
  uint64_t LastEvent = 0;
  std::vector<uint32_t> *EventCycles = nullptr;
  std::vector<uint32_t> *InstructionCycles = nullptr;
  uint64_t FirstRecorded = 0;
  std::vector<uint64_t> FunctionCycles, FunctionInstructions;
};

/// Makes cores for one CPU. Long-lived: the work of describing each distinct
/// instruction is shared by every core it makes, also by cores on several threads.
class Engine {
public:
  virtual ~Engine();

  EngineKind kind() const { return Kind; }
  const McaTarget &target() const { return *Target; }
  /// A core for one stream; \p NumFunctions sizes its per-function attribution (a
  /// "function" is whatever the caller tags code with: RefilledCode::Function).
  /// Thread-safe.
  virtual std::unique_ptr<CoreSimulator> startCore(uint32_t NumFunctions) = 0;

protected:
  Engine(EngineKind Kind, std::unique_ptr<McaTarget> Target);

private:
  EngineKind Kind;
  std::unique_ptr<McaTarget> Target;
};

} // namespace mlgo
