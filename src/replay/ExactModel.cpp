/// \file
/// Exact replay: one streaming MCA core per traced thread.
#include "ExactModel.h"

namespace mlgo {

llvm::Error ExactModel::onCode(uint32_t ThreadId, const RefilledCode &Code) {
  if (ThreadId != LastThread || !Last) {
    Core &C = Cores[ThreadId];
    if (!C.Sim) {
      C.Builder = std::make_unique<McaInstructionBuilder>(Target);
      C.Sim = std::make_unique<McaSimulator>(Target, *C.Builder, NumFunctions);
      if (RecordEvents)
        C.Sim->recordEventCycles(EventCycles[ThreadId]);
    }
    Last = C.Sim.get();
    LastThread = ThreadId;
  }
  return Last->add(Code);
}

llvm::Expected<PredictedCosts> ExactModel::finish() {
  PredictedCosts Costs;
  Costs.FunctionCycles.assign(NumFunctions, 0);
  Costs.FunctionInstructions.assign(NumFunctions, 0);
  for (auto &[Thread, C] : Cores) {
    if (llvm::Error E = C.Sim->finish())
      return E;
    Costs.Cycles += C.Sim->cycles();
    Costs.Instructions += C.Sim->instructions();
    ++Costs.Threads;
    for (size_t F = 0; F < NumFunctions; ++F) {
      Costs.FunctionCycles[F] += C.Sim->cyclesByFunction()[F];
      Costs.FunctionInstructions[F] += C.Sim->instructionsByFunction()[F];
    }
  }
  Costs.Simulated = Costs.Instructions;
  Costs.EventCycles = std::move(EventCycles);
  return Costs;
}

} // namespace mlgo
