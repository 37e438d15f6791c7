/// \file
/// Replay results: built from what a replay computed (makeResult), compared
/// function by function, and written as JSON.
#include "detail/VariantReplay.h"
#include "replay/Replay.h"
#include "replay/fast/AutoShard.h"
#include "replay/fast/Sampling.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace mlgo {

const char *unmappedPolicyName(UnmappedPolicy P) {
  return P == UnmappedPolicy::Skip ? "skip" : "replay";
}

ReplayResult makeResult(const ReplayOptions &Opts, const TraceProfile &Profile,
                        const VariantCode &Code, const Replayed &Run, bool Exact,
                        std::optional<double> AutoShardError) {
  ReplayResult R;
  R.Code = Code.variant().path();
  R.CPU = Opts.CPU;
  R.Engine = Opts.Engine;
  if (Opts.Engine == EngineKind::Flow)
    R.CoreProfile = Opts.Core.Source;
  R.LoadDependences = Opts.LoadDependences;
  R.Triple = replayTriple(Opts, Code);
  R.Unmapped = Opts.Unmapped;
  R.TraceInstructions = Run.Counts.TraceInstructions;
  R.UnmappedReplayed = Run.Counts.UnmappedReplayed;
  R.UnmappedSkipped = Run.Counts.UnmappedSkipped;
  R.FoldedIterations = Run.Counts.FoldedIterations;
  R.PartialSegments = Run.Counts.PartialSegments;
  R.Mispredicted = Run.Counts.Mispredicted;
  R.Mismatches = Code.mismatches();
  R.Cycles = Run.Costs.Cycles;
  R.Instructions = Run.Costs.Instructions;
  R.Threads = Run.Costs.Threads;
  R.Exact = Exact;
  if (Exact) {
    R.Chunks = Opts.Chunks.count(Profile.Instructions);
    R.ChunkWarmUp = R.Chunks > 1 ? Opts.Chunks.WarmUp : 0;
  }
  if (!Exact && Opts.Spans.samples())
    R.Sampling = samplingName(Opts.Spans);
  R.Simulated = Run.Costs.Simulated;
  R.SamplingError = Run.Costs.SamplingError;
  R.AutoShardError = AutoShardError;
  UnmappedFunctions Unmapped = unmappedFunctions(Opts, Profile);
  for (size_t F = 0; F < Run.Costs.FunctionCycles.size(); ++F) {
    FunctionCost Cost{"", Run.Costs.FunctionInstructions[F], Run.Costs.FunctionCycles[F]};
    bool Traced = F < Profile.Executed.size();
    if (Traced ? Profile.Executed[F] : Cost.Instructions > 0) {
      Cost.Function = Traced ? Profile.Header.Functions[F].Key
                             : Unmapped.Names[F - Profile.Executed.size()];
      R.Functions.push_back(Cost);
    }
  }
  std::stable_sort(R.Functions.begin(), R.Functions.end(),
                   [](const auto &A, const auto &B) { return A.Cycles > B.Cycles; });
  return R;
}

double ReplayComparison::speedupError() const {
  if (!Baseline.Cycles || !Candidate.Cycles)
    return 0;
  // Of a ratio: its relative errors add in quadrature.
  return (speedup() + 1) * std::hypot(Baseline.SamplingError / Baseline.Cycles,
                                      Candidate.SamplingError / Candidate.Cycles);
}

std::vector<FunctionDelta> ReplayComparison::deltas() const {
  std::map<std::string, FunctionDelta> ByName;
  for (const FunctionCost &F : Baseline.Functions)
    ByName[F.Function].BaselineCycles = F.Cycles;
  for (const FunctionCost &F : Candidate.Functions)
    ByName[F.Function].CandidateCycles = F.Cycles;
  std::vector<FunctionDelta> Deltas;
  for (auto &[Name, D] : ByName) {
    D.Function = Name;
    Deltas.push_back(D);
  }
  std::stable_sort(Deltas.begin(), Deltas.end(), [](const auto &A, const auto &B) {
    return std::llabs(A.delta()) > std::llabs(B.delta());
  });
  return Deltas;
}

Json ReplayResult::toJSON() const {
  Json Functions = Json::array();
  for (const FunctionCost &F : this->Functions)
    Functions.push_back(
        {{"function", F.Function}, {"instructions", F.Instructions}, {"cycles", F.Cycles}});
  Json Mismatched = Json::array();
  for (const FunctionMismatch &M : Mismatches)
    Mismatched.push_back({{"function", M.Function}, {"reason", M.Reason}});
  return {{"code", Code},
          {"cpu", CPU},
          {"engine", engineName(Engine)},
          {"core_profile", CoreProfile.empty() ? Json(nullptr) : Json(CoreProfile)},
          {"load_dependences", LoadDependences},
          {"triple", Triple},
          {"cycles", Cycles},
          {"instructions", Instructions},
          {"ipc", ipc()},
          {"trace_instructions", TraceInstructions},
          {"modeled_share", modeledShare()},
          {"unmapped", unmappedPolicyName(Unmapped)},
          {"unmapped_instructions", UnmappedReplayed + UnmappedSkipped},
          {"unmapped_replayed", UnmappedReplayed},
          {"unmapped_skipped", UnmappedSkipped},
          {"folded_iterations", FoldedIterations},
          {"partial_segments", PartialSegments},
          {"mispredicted_branches", Mispredicted},
          {"threads", Threads},
          {"mode", Exact ? "exact" : "fast"},
          {"chunks", Chunks > 1 ? Json{{"count", Chunks},
                                       {"instructions", TraceInstructions / Chunks},
                                       {"warm_up", ChunkWarmUp}}
                                : Json(nullptr)},
          {"sampling", Sampling.empty() ? Json(nullptr) : Json(Sampling)},
          {"sampling_error_cycles", Sampling.empty() ? Json(nullptr) : Json(SamplingError)},
          {"auto_shard",
           AutoShardError ? Json{{"sampling", AutoShard::name()},
                                 {"speedup_error", *AutoShardError},
                                 {"kept", !Sampling.empty()}}
                          : Json(nullptr)},
          {"simulated_instructions", Simulated},
          {"functions", Functions},
          {"replayed_with_baseline_code", Mismatched}};
}

Json ReplayComparison::toJSON() const {
  Json Functions = Json::array();
  for (const FunctionDelta &D : deltas())
    Functions.push_back({{"function", D.Function},
                         {"baseline_cycles", D.BaselineCycles},
                         {"candidate_cycles", D.CandidateCycles},
                         {"delta", D.delta()}});
  Json Out = {{"baseline", Baseline.toJSON()},
              {"candidate", Candidate.toJSON()},
              {"speedup", speedup()},
              {"speedup_error", speedupError()},
              {"functions", Functions}};
  Out["whole_run"] = Run ? Json{{"native_cycles", Run->NativeCycles},
                                {"modeled_share", Run->modeledShare(double(Baseline.Cycles))},
                                {"speedup", runSpeedup()}}
                         : Json();
  if (Explanations) {
    Json Explained = Json::array();
    for (const FunctionExplanation &E : *Explanations)
      Explained.push_back(E.toJSON());
    Out["explain"] = Explained;
  }
  return Out;
}

} // namespace mlgo
