/// \file
/// Fast replay: spans simulated in parallel, their differences from the reference's
/// recorded cycles added to its exact costs.
#include "SpanModel.h"
#include "support/Error.h"

#include <atomic>
#include <thread>

namespace mlgo {

SpanModel::SpanModel(const McaTarget &Target, uint32_t NumFunctions,
                     const SpanSettings &Settings, unsigned Jobs,
                     const PredictedCosts &Reference)
    : Target(Target), NumFunctions(NumFunctions),
      Same(Target.instrInfo(), Target.registerInfo().getProgramCounter()),
      Planner(Settings, Same), Jobs(std::max(1u, Jobs)), Reference(Reference) {}

SpanModel::~SpanModel() = default;

llvm::Error SpanModel::simulate(const Span &S, Job &J) {
  if (!J.Builder) {
    J.Builder = std::make_unique<McaInstructionBuilder>(Target);
    J.Cycles.assign(NumFunctions, 0);
    J.Instructions.assign(NumFunctions, 0);
  }
  // The warm-up's cycles go to an extra "function", NumFunctions, and are dropped.
  McaSimulator Sim(Target, *J.Builder, NumFunctions + 1);
  for (uint32_t I = 0; I < S.Events.size(); ++I) {
    const SpanCode &Code = Planner.codes()[S.Events[I].first];
    uint32_t Tag = I < S.WarmUp ? NumFunctions : Code.Function;
    if (llvm::Error E = Sim.add({Tag, S.Ordinals[I], Code.Instructions, Code.Addresses, {}, {}}))
      return E;
  }
  if (llvm::Error E = Sim.finish())
    return E;
  for (uint32_t F = 0; F < NumFunctions; ++F) {
    J.Cycles[F] += Sim.cyclesByFunction()[F];
    J.Instructions[F] += Sim.instructionsByFunction()[F];
  }
  // The reference's cycles of the same events, as it ran them in the whole trace.
  auto Recorded = Reference.EventCycles.find(S.Thread);
  for (uint32_t I = S.WarmUp; I < S.Events.size(); ++I) {
    const SpanCode &Code = Planner.codes()[S.Events[I].second];
    if (Recorded != Reference.EventCycles.end() && S.Ordinals[I] < Recorded->second.size())
      J.Cycles[Code.Function] -= Recorded->second[S.Ordinals[I]];
    J.Instructions[Code.Function] -= Code.Instructions.size();
  }
  return llvm::Error::success();
}

llvm::Error SpanModel::simulatePlanned() {
  std::vector<Span> Spans = Planner.takeSpans();
  std::vector<llvm::Error> Errors;
  for (const Span &S : Spans) {
    Simulated += S.Instructions;
    Errors.push_back(llvm::Error::success());
  }
  // Spans are independent, each from an empty pipeline, and their differences are
  // integers summed: the result does not depend on which thread simulates which.
  std::atomic<size_t> Next{0};
  auto Work = [&](Job &J) {
    for (size_t I; (I = Next++) < Spans.size();)
      Errors[I] = simulate(Spans[I], J);
  };
  std::vector<std::thread> Workers;
  for (size_t K = 1; K < Jobs.size() && K < Spans.size(); ++K)
    Workers.emplace_back(Work, std::ref(Jobs[K]));
  Work(Jobs[0]);
  for (std::thread &W : Workers)
    W.join();
  llvm::Error First = llvm::Error::success();
  for (llvm::Error &E : Errors) {
    if (E && !First)
      First = std::move(E);
    else
      llvm::consumeError(std::move(E));
  }
  return First;
}

llvm::Expected<PredictedCosts> SpanModel::finish() {
  Planner.finish();
  if (llvm::Error E = simulatePlanned())
    return E;
  if (Reference.FunctionCycles.size() != NumFunctions)
    return stageError("the reference was replayed with {} functions, not {}",
                      Reference.FunctionCycles.size(), NumFunctions);
  PredictedCosts Costs;
  Costs.Cycles = Reference.Cycles;
  Costs.Instructions = Reference.Instructions;
  Costs.Threads = Reference.Threads;
  Costs.FunctionCycles = Reference.FunctionCycles;
  Costs.FunctionInstructions = Reference.FunctionInstructions;
  for (const Job &J : Jobs) {
    if (!J.Builder)
      continue;
    for (uint32_t F = 0; F < NumFunctions; ++F) {
      Costs.FunctionCycles[F] += J.Cycles[F];
      Costs.FunctionInstructions[F] += J.Instructions[F];
      Costs.Cycles += J.Cycles[F];
      Costs.Instructions += J.Instructions[F];
    }
  }
  Costs.Simulated = Simulated;
  return Costs;
}

} // namespace mlgo
