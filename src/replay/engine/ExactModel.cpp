/// \file
/// Exact replay: one simulated core per traced thread.
#include "replay/engine/ExactModel.h"

namespace mlgo {

void ExactModel::switchTo(uint32_t ThreadId) {
  std::unique_ptr<CoreSimulator> &Core = Threads[ThreadId];
  if (!Core) {
    Core = Cores.startCore(NumFunctions);
    if (RecordEvents)
      Core->recordEventCycles(EventCycles[ThreadId]);
    if (ProfileInstructions)
      Attributions[ThreadId] = std::make_unique<InstructionAttribution>(*Core, NumFunctions);
  }
  Last = Core.get();
  LastAttribution = ProfileInstructions ? Attributions[ThreadId].get() : nullptr;
  LastThread = ThreadId;
}

llvm::Error ExactModel::onCode(uint32_t ThreadId, const RefilledCode &Code) {
  if (ThreadId != LastThread || !Last)
    switchTo(ThreadId);
  if (!LastAttribution)
    return Last->add(Code);
  if (llvm::Error E = Last->add(Code))
    return E;
  LastAttribution->added(Code);
  return llvm::Error::success();
}

llvm::Expected<PredictedCosts> ExactModel::finish() {
  PredictedCosts Costs;
  Costs.FunctionCycles.assign(NumFunctions, 0);
  Costs.FunctionInstructions.assign(NumFunctions, 0);
  for (auto &[Thread, Core] : Threads) {
    if (llvm::Error E = Core->finish())
      return E;
    if (ProfileInstructions) {
      InstructionAttribution &Attribution = *Attributions[Thread];
      Attribution.finished();
      mergeProfile(Costs.Profile, Attribution.profile());
    }
    Costs.Cycles += Core->cycles();
    Costs.Instructions += Core->instructions();
    ++Costs.Threads;
    for (size_t F = 0; F < NumFunctions; ++F) {
      Costs.FunctionCycles[F] += Core->cyclesByFunction()[F];
      Costs.FunctionInstructions[F] += Core->instructionsByFunction()[F];
    }
  }
  Costs.Simulated = Costs.Instructions;
  Costs.EventCycles = std::move(EventCycles);
  return Costs;
}

} // namespace mlgo
