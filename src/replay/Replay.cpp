/// \file
/// The replay stage's vocabulary (the automatic shard, --sample), one-shot replays
/// through a ReplayContext, and results as JSON.
#include "Replay.h"
#include "support/Error.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace mlgo {

bool AutoShard::fits(const std::map<uint32_t, uint64_t> &ThreadEvents) {
  uint64_t Windows = 0;
  for (const auto &[Thread, Events] : ThreadEvents)
    Windows += Events / Every;
  return Windows >= MinWindows;
}

llvm::Error parseSampling(llvm::StringRef Text, llvm::StringRef Option,
                          SpanSettings &Spans) {
  auto [Length, Every] = Text.split('/');
  uint64_t L = 0, E = 0;
  if (Length.getAsInteger(10, L) || Every.getAsInteger(10, E) || L == 0 || E < L)
    return inputError(Option, "'{}' is not LENGTH/EVERY: two event counts, 0 < LENGTH <= "
                              "EVERY (e.g. 1024/16384)",
                      Text.str());
  Spans.SampleLength = L;
  Spans.SampleEvery = E;
  return llvm::Error::success();
}

llvm::Error parseSampleOption(llvm::StringRef Text, llvm::StringRef Option,
                              SpanSettings &Spans, bool &AutoShard) {
  if (Text == "none")
    AutoShard = false;
  else if (Text != "auto")
    return parseSampling(Text, Option, Spans);
  return llvm::Error::success();
}

std::string AutoShard::name() {
  SpanSettings Spans;
  sampleIn(Spans);
  return samplingName(Spans);
}

std::string samplingName(const SpanSettings &Spans) {
  return fmt::format("{}/{}", Spans.SampleLength, Spans.SampleEvery);
}

const char *unmappedPolicyName(UnmappedPolicy P) {
  return P == UnmappedPolicy::Skip ? "skip" : "replay";
}

llvm::Expected<ReplayResult> runReplay(const ReplayOptions &Opts, llvm::StringRef Code) {
  auto Context = ReplayContext::create(Opts);
  if (!Context)
    return Context.takeError();
  return (*Context)->predict(Code);
}

llvm::Expected<ReplayComparison> compareReplays(const ReplayOptions &Opts,
                                                llvm::StringRef Baseline,
                                                llvm::StringRef Candidate) {
  auto Context = ReplayContext::create(Opts);
  if (!Context)
    return Context.takeError();
  return (*Context)->compare(Baseline, Candidate);
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
          {"threads", Threads},
          {"mode", Exact ? "exact" : "fast"},
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
  return {{"baseline", Baseline.toJSON()},
          {"candidate", Candidate.toJSON()},
          {"speedup", speedup()},
          {"speedup_error", speedupError()},
          {"functions", Functions}};
}

} // namespace mlgo
