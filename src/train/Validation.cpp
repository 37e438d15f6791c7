/// \file
/// Replaying the best policy, `default` and the start policy on whole traces.
#include "Validation.h"
#include "JobSet.h"
#include "RewardReplay.h"
#include "RunDirectory.h"
#include "policy/Policy.h"
#include "support/Error.h"
#include "support/Stopwatch.h"

#include "llvm/ADT/StringSet.h"
#include <chrono>

namespace mlgo {

namespace {

/// Whether validation replays exactly: with the flow engine; MCA simulates too slowly
/// for whole traces (minutes per million instructions), so there fast replay covers
/// the whole trace, simulating where the code differs from the traced binary's.
bool validatesExactly(const TrainOptions &Opts) {
  return Opts.Evaluation.Engine != EngineKind::Mca;
}

/// A replay of the whole of \p Trace, recorded on \p Binary, with the rewards' CPU,
/// engine and mismatch policy.
ReplayOptions wholeTraceOptions(const TrainOptions &Opts, const std::string &Trace,
                                const std::string &Binary) {
  ReplayOptions Replaying = trainReplayOptions(Opts);
  Replaying.Trace = Trace;
  Replaying.RecordedBinary = Binary;
  Replaying.Exact = validatesExactly(Opts);
  Replaying.AutoShard = false;
  Replaying.Spans.SampleEvery = Replaying.Spans.SampleLength = 0;
  // A handful of replays: a long trace may use every core the run was given.
  Replaying.Jobs = Opts.Evaluation.Jobs;
  return Replaying;
}

std::string binaryOf(const HeldOutTrace &H, const TrainOptions &Opts) {
  return H.Binary.empty() ? Opts.Inputs.Baseline : H.Binary;
}

double speedup(uint64_t Baseline, uint64_t Candidate) {
  return Candidate && Baseline ? double(Baseline) / Candidate - 1 : 0;
}

/// The record of one trace; with \p Run (the training trace of a program whose native
/// cycles are known) also the speedups of the whole run.
Json traceRecord(const std::string &Trace, const std::string &Binary, bool HeldOut,
                 const ReplayResult &Default, const ReplayResult &Start,
                 const ReplayResult &Best, const std::optional<WholeRun> &Run) {
  Json Record = {{"trace", Trace},
                 {"binary", Binary},
                 {"held_out", HeldOut},
                 {"default_cycles", Default.Cycles},
                 {"start_cycles", Start.Cycles},
                 {"best_cycles", Best.Cycles},
                 {"start_speedup", speedup(Default.Cycles, Start.Cycles)},
                 {"best_speedup", speedup(Default.Cycles, Best.Cycles)}};
  if (Run)
    Record["whole_run"] = {
        {"native_cycles", Run->NativeCycles},
        {"start_speedup", Run->speedup(double(Default.Cycles), double(Start.Cycles))},
        {"best_speedup", Run->speedup(double(Default.Cycles), double(Best.Cycles))}};
  ReplayComparison Against{Default, Best, std::nullopt, std::nullopt};
  Json Functions = Json::array();
  size_t Changed = 0;
  for (const FunctionDelta &D : Against.deltas()) {
    if (!D.delta())
      continue;
    if (++Changed <= ValidationFunctions)
      Functions.push_back({{"function", D.Function},
                           {"default_cycles", D.BaselineCycles},
                           {"best_cycles", D.CandidateCycles},
                           {"delta", D.delta()}});
  }
  Record["changed_functions"] = Changed;
  Record["functions"] = std::move(Functions);
  return Record;
}

/// An error unless some function that ran in \p R (a replay of \p Trace) had its code
/// from the corpus: a trace of another program replays only the baseline's code
/// (CfgMismatchPolicy::UseBaseline), and its +0.000% would look like a validation.
llvm::Error checkCorpusCovers(const ReplayResult &R, const std::string &Trace,
                              const TrainOptions &Opts) {
  llvm::StringSet<> Fallbacks;
  for (const FunctionMismatch &M : R.Mismatches)
    Fallbacks.insert(M.Function);
  for (const FunctionCost &F : R.Functions)
    if (F.Instructions && !llvm::StringRef(F.Function).starts_with("[unmapped] ") &&
        !Fallbacks.contains(F.Function))
      return llvm::Error::success();
  return inputError(Trace, "none of the functions it ran is in the training corpus {}: "
                           "it would replay only the baseline's code, which validates "
                           "nothing (a trace of another program?)",
                    Opts.Inputs.Corpus);
}

} // namespace

llvm::Error checkHeldOutTraces(const TrainOptions &Opts) {
  for (const HeldOutTrace &H : Opts.Validation.HeldOut)
    if (llvm::Error E = checkRecordedBinary(H.Trace, binaryOf(H, Opts)))
      return E;
  return llvm::Error::success();
}

llvm::Expected<Json> validateBest(Evaluator &Eval, const Policy &Start,
                                  const TrainOptions &Opts, ReplayContext *Training,
                                  uint64_t Steps) {
  auto Began = std::chrono::steady_clock::now();
  const std::string &Trace = Opts.Inputs.Trace, &Baseline = Opts.Inputs.Baseline;
  const std::vector<HeldOutTrace> &HeldOut = Opts.Validation.HeldOut;
  std::string BestPath = Opts.Run.Output + "/" + TrainBestPolicyFile;
  auto Best = loadPolicy(BestPath);
  if (!Best)
    return Best.takeError();

  // The contexts: the whole training trace first, then the held-out ones in order.
  std::vector<std::unique_ptr<ReplayContext>> Owned;
  std::vector<ReplayContext *> On;
  auto Add = [&](const std::string &Whole, const std::string &Binary) -> llvm::Error {
    auto Made = ReplayContext::create(wholeTraceOptions(Opts, Whole, Binary));
    if (!Made)
      return Made.takeError();
    Owned.push_back(std::move(*Made));
    On.push_back(Owned.back().get());
    return llvm::Error::success();
  };
  if (Training && Training->options().Exact == validatesExactly(Opts) &&
      !Training->options().AutoShard && !Training->options().Spans.samples())
    On.push_back(Training); // the rewards already replay the whole trace so
  else if (llvm::Error E = Add(Trace, Baseline))
    return E;
  for (const HeldOutTrace &H : HeldOut)
    if (llvm::Error E = Add(H.Trace, binaryOf(H, Opts)))
      return E;

  auto Defaults = Eval.replayOn(Policy::makeDefault(), "validate-default", On);
  if (!Defaults)
    return Defaults.takeError();
  for (size_t I = 0; I < Defaults->size(); ++I)
    if (llvm::Error E = checkCorpusCovers((*Defaults)[I],
                                          I ? HeldOut[I - 1].Trace : Trace, Opts))
      return E;
  auto Starts = Eval.replayOn(Start, "validate-start", On);
  if (!Starts)
    return Starts.takeError();
  auto Bests = Eval.replayOn(*Best, "validate-best", On);
  if (!Bests)
    return Bests.takeError();

  Json Traces = Json::array();
  Traces.push_back(
      traceRecord(Trace, Baseline, false, (*Defaults)[0], (*Starts)[0], (*Bests)[0],
                  Opts.Inputs.NativeCycles
                      ? std::optional<WholeRun>(WholeRun{*Opts.Inputs.NativeCycles})
                      : std::nullopt));
  for (size_t I = 0; I < HeldOut.size(); ++I)
    Traces.push_back(traceRecord(HeldOut[I].Trace, binaryOf(HeldOut[I], Opts), true,
                                 (*Defaults)[I + 1], (*Starts)[I + 1], (*Bests)[I + 1],
                                 std::nullopt));
  Json Validation = {
      {"policy", BestPath},
      {"start", Opts.Search.Init},
      {"steps", Steps},
      {"cpu", Opts.Evaluation.CPU},
      {"engine", engineName(Opts.Evaluation.Engine)},
      {"mode", validatesExactly(Opts) ? "exact" : "fast"},
      {"traces", std::move(Traces)},
      {"seconds", secondsSince(Began)}};
  return Json{{"validation", std::move(Validation)}};
}

llvm::Expected<Json> validateJobs(JobSet &Jobs, const Policy &Start, uint64_t Steps) {
  Json Record;
  for (size_t I = 0; I < Jobs.size(); ++I) {
    auto Validated =
        validateBest(Jobs.evaluator(I), Start, Jobs.optionsOf(I), Jobs.context(I), Steps);
    if (!Validated)
      return Jobs.hasJobs()
                 ? inJob(Jobs.program(I).Name + ": validation", Validated.takeError())
                 : Validated.takeError();
    if (!Jobs.hasJobs())
      return Validated;
    Json &V = (*Validated)["validation"];
    for (Json &Trace : V["traces"]) {
      Json Named = {{"job", Jobs.program(I).Name}}; // first: the trace's program
      Named.update(Trace);
      Trace = std::move(Named);
    }
    if (Record.is_null()) {
      Record = std::move(*Validated);
      continue;
    }
    Json &All = Record["validation"];
    for (Json &Trace : V["traces"])
      All["traces"].push_back(std::move(Trace));
    All["seconds"] = All["seconds"].get<double>() + V["seconds"].get<double>();
  }
  return Record;
}

} // namespace mlgo
