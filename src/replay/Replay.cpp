/// \file
/// The replay stage: a profile of the trace (the functions it runs), matching the code,
/// then refill and simulation, one MCA core per traced thread.
#include "Replay.h"
#include "Replayer.h"
#include "support/Error.h"
#include "support/Progress.h"
#include "trace/TraceProfile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <thread>

namespace mlgo {

namespace {

std::string listMismatches(const std::vector<FunctionMismatch> &List) {
  std::string Out;
  for (size_t I = 0; I < List.size() && I < 5; ++I)
    Out += (I ? ", " : "") + List[I].Function + " (" + List[I].Reason + ")";
  if (List.size() > 5)
    Out += fmt::format(" and {} more", List.size() - 5);
  return Out;
}

VariantCode matchToTrace(const TraceProfile &Profile, const CodeImage &Code,
                         const CodeImage *Fallback) {
  return VariantCode::match(Profile.Header, Profile.Segments, Profile.Executed, Code,
                            Fallback);
}

/// An error naming the traced functions that \p Matched could not provide, if any.
llvm::Error requireResolved(const VariantCode &Matched, bool HadFallback) {
  const auto &Unresolved = Matched.unresolved();
  if (Unresolved.empty())
    return llvm::Error::success();
  return inputError(Matched.variant().path(),
                    "{} traced function{} do{} not match the trace{}: {}", Unresolved.size(),
                    Unresolved.size() == 1 ? "" : "s", Unresolved.size() == 1 ? "es" : "",
                    HadFallback ? " (nor does the baseline)" : "",
                    listMismatches(Unresolved));
}

/// The trace's profile, checked to hold what Opts asks to replay.
llvm::Expected<TraceProfile> loadProfile(const ReplayOptions &Opts) {
  auto Profile = profileTrace(Opts.Trace);
  if (Profile && Opts.Unmapped == UnmappedPolicy::Replay && !Profile->KeepsUnmappedCode)
    return inputError(Opts.Trace, "holds no bytes of unmapped code to replay (record it "
                                  "with trace record --keep-unmapped, or use --unmapped "
                                  "skip)");
  return Profile;
}

/// The binary the trace at \p TracePath (with \p Header) was recorded on, checked to
/// be unchanged.
llvm::Expected<CodeImage> loadRecordedBinary(llvm::StringRef TracePath,
                                             const SegmentTraceHeader &Header,
                                             llvm::StringRef Path) {
  auto Image = CodeImage::load(Path);
  if (!Image)
    return Image.takeError();
  if (Image->identity() != Header.Identity)
    return inputError(TracePath, "was recorded on {} ({}), not on {} ({})",
                      Header.BinaryPath, Header.Identity, Path, Image->identity());
  return Image;
}

llvm::Expected<CodeImage> loadRecordedBinary(const TraceProfile &Profile,
                                             llvm::StringRef Path) {
  return loadRecordedBinary(Profile.Path, Profile.Header, Path);
}

/// A fast replay: what it computed, the options it ran with (a shard or not), and the
/// standard error of AutoShard's shard if it tried that first.
struct FastReplay {
  Replayed Run;
  ReplayOptions Ran;
  std::optional<double> ShardError;
};

/// Fast replay of \p Code against \p Reference; on a long trace, AutoShard's shard first.
llvm::Expected<FastReplay> replayFast(const ReplayOptions &Opts, const TraceProfile &Profile,
                                      const VariantCode &Code, const VariantCode &Reference,
                                      const PredictedCosts &ReferenceCosts, Progress &Bar) {
  FastReplay Out;
  Out.Ran = Opts;
  uint64_t Tried = 0; ///< instructions simulated on a shard not kept
  if (Opts.AutoShard && !Opts.Spans.samples() && AutoShard::fits(Profile.ThreadEvents)) {
    AutoShard::sampleIn(Out.Ran.Spans);
    auto Sharded = replayAgainst(Out.Ran, Profile, Code, Reference, ReferenceCosts, Bar);
    if (!Sharded)
      return Sharded.takeError();
    // The speedup is the reference's cycles over these.
    const PredictedCosts &Costs = Sharded->Costs;
    double Cycles = std::max<double>(Costs.Cycles, 1);
    Out.ShardError = ReferenceCosts.Cycles * Costs.SamplingError / (Cycles * Cycles);
    if (100 * *Out.ShardError <= AutoShard::MaxErrorPoints) {
      Out.Run = std::move(*Sharded);
      return Out;
    }
    Out.Ran = Opts;
    Tried = Costs.Simulated;
  }
  auto Run = replayAgainst(Opts, Profile, Code, Reference, ReferenceCosts, Bar);
  if (!Run)
    return Run.takeError();
  Out.Run = std::move(*Run);
  Out.Run.Costs.Simulated += Tried;
  return Out;
}

/// The result of a fast replay.
ReplayResult makeFastResult(const TraceProfile &Profile, const VariantCode &Code,
                            const FastReplay &Fast) {
  ReplayResult R = makeResult(Fast.Ran, Profile, Code, Fast.Run, false);
  R.AutoShardError = Fast.ShardError;
  return R;
}

} // namespace

llvm::Error checkRecordedBinary(llvm::StringRef Trace, llvm::StringRef Binary) {
  auto Reader = SegmentTraceReader::open(Trace); // reads only the header
  if (!Reader)
    return Reader.takeError();
  auto Image = loadRecordedBinary(Trace, (*Reader)->header(), Binary);
  return Image ? llvm::Error::success() : Image.takeError();
}

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
  auto Profile = loadProfile(Opts);
  if (!Profile)
    return Profile.takeError();
  auto Image = CodeImage::load(Code);
  if (!Image)
    return Image.takeError();
  // The recorded binary is the fast replay's reference, and the code of mismatched
  // functions with UseBaseline. Fast replay without it is exact.
  llvm::StringRef RecordedPath =
      Opts.RecordedBinary.empty() ? Profile->Header.BinaryPath : Opts.RecordedBinary;
  std::optional<CodeImage> Recorded;
  VariantCode Matched = matchToTrace(*Profile, *Image, nullptr);
  bool NeedsFallback = !Matched.mismatches().empty() &&
                       Opts.OnCfgMismatch == CfgMismatchPolicy::UseBaseline;
  if (NeedsFallback || !Opts.Exact) {
    auto Loaded = loadRecordedBinary(*Profile, RecordedPath);
    if (Loaded)
      Recorded = std::move(*Loaded);
    else if (NeedsFallback)
      return Loaded.takeError();
    else
      llvm::consumeError(Loaded.takeError());
  }
  if (NeedsFallback)
    Matched = matchToTrace(*Profile, *Image, &*Recorded);
  if (llvm::Error E = requireResolved(Matched, NeedsFallback))
    return E;
  Progress Bar("replay", Profile->Instructions, Opts.ShowProgress);
  if (Opts.Exact || !Recorded) {
    ReplayOptions Exactly = Opts;
    Exactly.CacheDir.clear(); // --exact is the reference: it always simulates
    auto R = replayExactly(Exactly, *Profile, Matched, Bar);
    if (!R)
      return R.takeError();
    return makeResult(Opts, *Profile, Matched, *R, true);
  }
  VariantCode Reference = matchToTrace(*Profile, *Recorded, nullptr);
  auto Exact = replayExactly(Opts, *Profile, Reference, Bar, /*RecordEvents=*/true);
  if (!Exact)
    return Exact.takeError();
  auto R = replayFast(Opts, *Profile, Matched, Reference, Exact->Costs, Bar);
  if (!R)
    return R.takeError();
  return makeFastResult(*Profile, Matched, *R);
}

llvm::Expected<ReplayComparison> compareReplays(const ReplayOptions &Opts,
                                                llvm::StringRef Baseline,
                                                llvm::StringRef Candidate) {
  auto Profile = loadProfile(Opts);
  if (!Profile)
    return Profile.takeError();
  auto BaselineImage = llvm::sys::fs::is_directory(Baseline)
                           ? CodeImage::load(Baseline)
                           : loadRecordedBinary(*Profile, Baseline);
  if (!BaselineImage)
    return BaselineImage.takeError();
  auto CandidateImage = CodeImage::load(Candidate);
  if (!CandidateImage)
    return CandidateImage.takeError();
  const CodeImage *Fallback =
      Opts.OnCfgMismatch == CfgMismatchPolicy::UseBaseline ? &*BaselineImage : nullptr;
  VariantCode BaselineCode = matchToTrace(*Profile, *BaselineImage, nullptr);
  VariantCode CandidateCode = matchToTrace(*Profile, *CandidateImage, Fallback);
  if (llvm::Error E = requireResolved(BaselineCode, false))
    return E;
  if (llvm::Error E = requireResolved(CandidateCode, Fallback != nullptr))
    return E;

  Progress Bar("replay", 2 * Profile->Instructions, Opts.ShowProgress);
  if (!Opts.Exact) {
    // The baseline is replayed exactly (or found in the cache), then the candidate
    // against it.
    auto BaselineRun = replayExactly(Opts, *Profile, BaselineCode, Bar, true);
    if (!BaselineRun)
      return BaselineRun.takeError();
    auto CandidateRun =
        replayFast(Opts, *Profile, CandidateCode, BaselineCode, BaselineRun->Costs, Bar);
    if (!CandidateRun)
      return CandidateRun.takeError();
    return ReplayComparison{makeResult(Opts, *Profile, BaselineCode, *BaselineRun, true),
                            makeFastResult(*Profile, CandidateCode, *CandidateRun)};
  }
  // --exact: the two replays are independent, one per core, and never cached.
  ReplayOptions Exactly = Opts;
  Exactly.CacheDir.clear();
  std::optional<llvm::Expected<Replayed>> BaselineRun;
  std::thread Worker(
      [&] { BaselineRun = replayExactly(Exactly, *Profile, BaselineCode, Bar); });
  auto CandidateRun = replayExactly(Exactly, *Profile, CandidateCode, Bar);
  Worker.join();
  if (!*BaselineRun) {
    llvm::consumeError(CandidateRun.takeError());
    return BaselineRun->takeError();
  }
  if (!CandidateRun)
    return CandidateRun.takeError();
  return ReplayComparison{makeResult(Opts, *Profile, BaselineCode, **BaselineRun, true),
                          makeResult(Opts, *Profile, CandidateCode, *CandidateRun, true)};
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
