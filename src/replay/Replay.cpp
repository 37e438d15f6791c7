/// \file
/// The replay stage: a profile of the trace (the functions it runs), matching the code,
/// then refill and simulation, one MCA core per traced thread.
#include "Replay.h"
#include "ExactModel.h"
#include "Refill.h"
#include "support/Error.h"
#include "support/Progress.h"
#include "trace/TraceProfile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <algorithm>
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

/// The pseudo-functions that replayed unmapped code is attributed to, numbered after
/// the trace's functions: one per module file name ("[unmapped] libc.so.6").
struct UnmappedFunctions {
  std::vector<std::string> Names;
  std::vector<uint32_t> OfModule; ///< per collector module id; empty: skip unmapped code
};

UnmappedFunctions unmappedFunctions(const ReplayOptions &Opts, const TraceProfile &Profile) {
  UnmappedFunctions U;
  if (Opts.Unmapped == UnmappedPolicy::Skip)
    return U;
  std::map<std::string, uint32_t> ByName;
  for (const std::string &Module : Profile.ModuleNames) {
    std::string Name = "[unmapped] " + llvm::sys::path::filename(Module).str();
    auto [It, New] = ByName.try_emplace(Name, Profile.Header.Functions.size() + U.Names.size());
    if (New)
      U.Names.push_back(Name);
    U.OfModule.push_back(It->second);
  }
  return U;
}

llvm::Expected<ReplayResult> replayCode(const ReplayOptions &Opts, const TraceProfile &Profile,
                                        const VariantCode &Code, Progress &Bar) {
  std::string Triple = Opts.Triple.empty() ? Code.variant().triple() : Opts.Triple;
  auto Target = McaTarget::create(Triple, Opts.CPU);
  if (!Target)
    return Target.takeError();
  auto Reader = SegmentTraceReader::open(Profile.Path);
  if (!Reader)
    return Reader.takeError();
  UnmappedFunctions Unmapped = unmappedFunctions(Opts, Profile);
  size_t NumFunctions = Profile.Header.Functions.size() + Unmapped.Names.size();
  std::unique_ptr<CostModel> Model = std::make_unique<ExactModel>(**Target, NumFunctions);
  uint64_t Reported = 0;
  auto Counts = refillTrace(**Reader, Code, *Model, Unmapped.OfModule, [&](uint64_t Done) {
    Bar.advance(Done - Reported);
    Reported = Done;
  });
  if (!Counts)
    return Counts.takeError();
  auto Predicted = Model->finish();
  if (!Predicted)
    return Predicted.takeError();

  ReplayResult R;
  R.Code = Code.variant().path();
  R.CPU = Opts.CPU;
  R.Triple = Triple;
  R.Unmapped = Opts.Unmapped;
  R.TraceInstructions = Counts->TraceInstructions;
  R.UnmappedReplayed = Counts->UnmappedReplayed;
  R.UnmappedSkipped = Counts->UnmappedSkipped;
  R.FoldedIterations = Counts->FoldedIterations;
  R.PartialSegments = Counts->PartialSegments;
  R.Mismatches = Code.mismatches();
  R.Cycles = Predicted->Cycles;
  R.Instructions = Predicted->Instructions;
  R.Threads = Predicted->Threads;
  R.Exact = Opts.Exact;
  R.Simulated = Predicted->Simulated;
  std::vector<FunctionCost> Costs(NumFunctions);
  for (size_t F = 0; F < Costs.size(); ++F) {
    Costs[F].Cycles = Predicted->FunctionCycles[F];
    Costs[F].Instructions = Predicted->FunctionInstructions[F];
  }
  for (size_t F = 0; F < Costs.size(); ++F) {
    bool Traced = F < Profile.Executed.size();
    if (Traced ? Profile.Executed[F] : Costs[F].Instructions > 0) {
      Costs[F].Function = Traced ? Profile.Header.Functions[F].Key
                                 : Unmapped.Names[F - Profile.Executed.size()];
      R.Functions.push_back(Costs[F]);
    }
  }
  std::stable_sort(R.Functions.begin(), R.Functions.end(),
                   [](const auto &A, const auto &B) { return A.Cycles > B.Cycles; });
  return R;
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

/// The binary the trace was recorded on, checked to be unchanged.
llvm::Expected<CodeImage> loadRecordedBinary(const TraceProfile &Profile, llvm::StringRef Path) {
  auto Image = CodeImage::load(Path);
  if (!Image)
    return Image.takeError();
  if (Image->identity() != Profile.Header.Identity)
    return inputError(Profile.Path, "was recorded on {} ({}), not on {} ({})",
                      Profile.Header.BinaryPath, Profile.Header.Identity, Path,
                      Image->identity());
  return Image;
}

} // namespace

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
  // The recorded binary is read only if some function needs its code.
  std::optional<CodeImage> Recorded;
  VariantCode Matched = matchToTrace(*Profile, *Image, nullptr);
  if (!Matched.mismatches().empty() &&
      Opts.OnCfgMismatch == CfgMismatchPolicy::UseBaseline) {
    auto Loaded = loadRecordedBinary(*Profile, Opts.RecordedBinary.empty()
                                                   ? Profile->Header.BinaryPath
                                                   : Opts.RecordedBinary);
    if (!Loaded)
      return Loaded.takeError();
    Recorded = std::move(*Loaded);
    Matched = matchToTrace(*Profile, *Image, &*Recorded);
  }
  if (llvm::Error E = requireResolved(Matched, Recorded.has_value()))
    return E;
  Progress Bar("replay", Profile->Instructions, Opts.ShowProgress);
  return replayCode(Opts, *Profile, Matched, Bar);
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

  // The two replays are independent: one per core.
  Progress Bar("replay", 2 * Profile->Instructions, Opts.ShowProgress);
  std::optional<llvm::Expected<ReplayResult>> BaselineResult;
  std::thread Worker([&] { BaselineResult = replayCode(Opts, *Profile, BaselineCode, Bar); });
  auto CandidateResult = replayCode(Opts, *Profile, CandidateCode, Bar);
  Worker.join();
  if (!*BaselineResult) {
    llvm::consumeError(CandidateResult.takeError());
    return BaselineResult->takeError();
  }
  if (!CandidateResult)
    return CandidateResult.takeError();
  return ReplayComparison{std::move(**BaselineResult), std::move(*CandidateResult)};
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
          {"functions", Functions}};
}

} // namespace mlgo
