/// \file
/// Fast replay: spans simulated in parallel, their differences from the reference's
/// recorded cycles added to its exact costs.
#include "replay/fast/SpanModel.h"
#include "support/Error.h"
#include "support/ParallelWork.h"

#include <atomic>
#include <cmath>
#include <map>

namespace mlgo {

SpanModel::SpanModel(Engine &Cores, uint32_t NumFunctions, const SpanSettings &Settings,
                     unsigned Jobs, const PredictedCosts &Reference)
    : Cores(Cores), NumFunctions(NumFunctions), Planner(Settings, Cores.target(), Cores.kind() == EngineKind::Flow),
      Jobs(std::max(1u, Jobs)), Reference(Reference), Cycles(NumFunctions),
      Instructions(NumFunctions) {}

SpanModel::~SpanModel() = default;

llvm::Error SpanModel::simulate(const Span &S, std::vector<Delta> &Out) const {
  // The cycles of the warm-up and of a window's cooling go to an extra "function",
  // NumFunctions, and are dropped.
  std::unique_ptr<CoreSimulator> Core = Cores.startCore(NumFunctions + 1);
  CoreSimulator &Sim = *Core;
  for (uint32_t I = 0; I < S.Events.size(); ++I) {
    const SpanCode &Code = Planner.codes()[S.Events[I].first];
    uint32_t Tag = I < S.WarmUp || I >= S.Counted ? NumFunctions : Code.Function;
    RefilledCode Event{Tag, S.Ordinals[I], Code.Instructions, Code.Addresses, {}, {}};
    Event.Sizes = Code.Sizes;
    Event.LineBase = Code.LineBase;
    Event.Mispredicted = S.Mispredicted[I];
    if (llvm::Error E = Sim.add(Event))
      return E;
  }
  if (llvm::Error E = Sim.finish())
    return E;
  // The variant's cycles of the counted events, minus the reference's cycles of the
  // same events as it ran them in the whole trace.
  auto Recorded = Reference.EventCycles.find(S.Thread);
  std::map<uint32_t, Delta> ByFunction;
  for (uint32_t I = S.WarmUp; I < S.Counted; ++I) {
    uint32_t F = Planner.codes()[S.Events[I].first].Function;
    ByFunction.try_emplace(F, Delta{F, int64_t(Sim.cyclesByFunction()[F]),
                                    int64_t(Sim.instructionsByFunction()[F])});
    const SpanCode &InReference = Planner.codes()[S.Events[I].second];
    Delta &D = ByFunction.try_emplace(InReference.Function, Delta{InReference.Function, 0, 0})
                   .first->second;
    if (Recorded != Reference.EventCycles.end() && S.Ordinals[I] < Recorded->second.size())
      D.Cycles -= Recorded->second[S.Ordinals[I]];
    D.Instructions -= InReference.Instructions.size();
  }
  for (auto &[F, D] : ByFunction)
    Out.push_back(D);
  return llvm::Error::success();
}

llvm::Error SpanModel::simulatePlanned() {
  std::vector<Span> Spans = Planner.takeSpans();
  std::vector<std::vector<Delta>> Deltas(Spans.size());
  // Spans are independent, each from an empty pipeline: the result does not depend on
  // which thread simulates which. After a failure the rest are skipped (one error).
  std::atomic<bool> Failed{false};
  llvm::Error E = runInParallel(Spans.size(), Jobs, [&](size_t I) -> llvm::Error {
    if (Failed)
      return llvm::Error::success();
    llvm::Error Err = simulate(Spans[I], Deltas[I]);
    Failed = Failed || bool(Err);
    return Err;
  });
  if (E)
    return E;
  const SpanSettings &Settings = Planner.settings();
  for (size_t I = 0; I < Spans.size(); ++I) {
    const Span &S = Spans[I];
    Simulated += S.Instructions;
    int64_t Added = 0;
    for (const Delta &D : Deltas[I]) {
      Cycles[D.Function] += D.Cycles;
      Instructions[D.Function] += D.Instructions;
      Added += D.Cycles;
    }
    // A span counts events of one window only: the one its first counted event is in.
    if (Settings.samples() && S.WarmUp < S.Ordinals.size())
      WindowCycles[{S.Thread, S.Ordinals[S.WarmUp] / Settings.SampleEvery}] += Added;
  }
  return llvm::Error::success();
}

double SpanModel::samplingError() const {
  const SpanSettings &Settings = Planner.settings();
  if (!Settings.samples())
    return 0;
  // The windows are a systematic sample of the trace's periods (one window per EVERY
  // events), and the estimate is their sum over the sampled fraction. Its variance is
  // estimated from the differences between successive windows (windows without spans
  // add 0), which, unlike the windows' spread about their mean, leaves out the phases
  // of a program that a systematic sample covers evenly.
  double Differences = 0;
  uint64_t Windows = 0, Pairs = 0;
  for (const auto &[Thread, Count] : Planner.windows()) {
    double Previous = 0;
    for (uint64_t W = 0; W < Count; ++W) {
      auto It = WindowCycles.find({Thread, W});
      double Cycles = It == WindowCycles.end() ? 0 : It->second;
      if (W > 0) {
        Differences += (Cycles - Previous) * (Cycles - Previous);
        ++Pairs;
      }
      Previous = Cycles;
    }
    Windows += Count;
  }
  if (!Pairs)
    return 0;
  double Fraction = double(Settings.SampleLength) / Settings.SampleEvery;
  double Variance = Differences / (2 * Pairs);
  return std::sqrt(Windows * (1 - Fraction) * Variance) / Fraction;
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
  // Sampled differences stand for those of the windows' whole period.
  double Weight = Planner.settings().sampleWeight();
  for (uint32_t F = 0; F < NumFunctions; ++F) {
    int64_t FunctionCycles = std::llround(Cycles[F] * Weight);
    int64_t FunctionInstructions = std::llround(Instructions[F] * Weight);
    Costs.FunctionCycles[F] += FunctionCycles;
    Costs.FunctionInstructions[F] += FunctionInstructions;
    Costs.Cycles += FunctionCycles;
    Costs.Instructions += FunctionInstructions;
  }
  Costs.Simulated = Simulated;
  Costs.SamplingError = samplingError();
  return Costs;
}

} // namespace mlgo
