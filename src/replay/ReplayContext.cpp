/// \file
/// The replay context: the trace's profile and hash read at creation; the traced binary,
/// its code matched to the trace and its exact replay computed when a replay first
/// needs them, under a lock, and kept.
#include "replay/ReplayContext.h"
#include "detail/Explainer.h"
#include "detail/ResultCache.h"
#include "detail/VariantReplay.h"
#include "code/DefinedGlobals.h"
#include "replay/Replay.h"
#include "replay/fast/AutoShard.h"
#include "replay/fast/ShardCollector.h"
#include "support/Error.h"
#include "support/Progress.h"
#include "trace/TraceProfile.h"

#include "llvm/Support/FileSystem.h"
#include <algorithm>
#include <mutex>
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

/// A fast replay: what it computed, the options it ran with (a shard or not), and the
/// standard error of AutoShard's shard if it tried that first.
struct FastReplay {
  Replayed Run;
  ReplayOptions Ran;
  std::optional<double> ShardError;
};

/// The events of a shard, collected once: ReplayContext's.
using ShardSource = llvm::function_ref<llvm::Expected<const ShardEvents *>(const SpanSettings &)>;

/// Fast replay of \p Code against \p Reference, on its shard's events (from \p Shards)
/// if Opts.Spans samples; with Opts.AutoShard (decided by the context), AutoShard's
/// shard first.
llvm::Expected<FastReplay> replayFast(const ReplayOptions &Opts, const TraceProfile &Profile,
                                      const VariantCode &Code, const VariantCode &Reference,
                                      const Replayed &ReferenceRun, Progress &Bar,
                                      ShardSource Shards) {
  auto replay = [&](const ReplayOptions &With) -> llvm::Expected<Replayed> {
    const ShardEvents *Shard = nullptr;
    if (With.Spans.samples()) {
      auto Collected = Shards(With.Spans);
      if (!Collected)
        return Collected.takeError();
      Shard = *Collected;
    }
    return replayAgainst(With, Profile, Code, Reference, ReferenceRun, Bar, Shard);
  };
  const PredictedCosts &ReferenceCosts = ReferenceRun.Costs;
  FastReplay Out;
  Out.Ran = Opts;
  uint64_t Tried = 0; ///< instructions simulated on a shard not kept
  if (Opts.AutoShard) {
    AutoShard::sampleIn(Out.Ran.Spans);
    auto Sharded = replay(Out.Ran);
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
  auto Run = replay(Opts);
  if (!Run)
    return Run.takeError();
  Out.Run = std::move(*Run);
  Out.Run.Costs.Simulated += Tried;
  return Out;
}

/// The result of a fast replay.
ReplayResult makeFastResult(const TraceProfile &Profile, const VariantCode &Code,
                            const FastReplay &Fast) {
  return makeResult(Fast.Ran, Profile, Code, Fast.Run, false, Fast.ShardError);
}

} // namespace

struct ReplayContext::State {
  ReplayOptions Opts;
  TraceProfile Profile;
  /// Of the trace's bytes, for the cache keys; empty: nothing cached.
  std::string TraceHash;
  std::mutex Lock; ///< guards what follows, made when a replay first needs it
  std::optional<CodeImage> Recorded; ///< the binary the trace was recorded on
  std::optional<VariantCode> Reference; ///< Recorded's code, matched to the trace
  std::optional<Replayed> ReferenceRun; ///< its exact replay, with event cycles
  /// The events of each shard a fast replay sampled, with the settings they were
  /// collected for, collected when first needed and kept (never replaced: replays read
  /// them unlocked).
  std::vector<std::pair<SpanSettings, std::unique_ptr<ShardEvents>>> Shards;

  /// The events of \p Spans' shard; takes Lock.
  llvm::Expected<const ShardEvents *> shard(const SpanSettings &Spans) {
    std::lock_guard<std::mutex> Guard(Lock);
    for (const auto &[Collected, Kept] : Shards)
      if (sameShard(Collected, Spans))
        return Kept.get();
    auto Collected = collectShardEvents(Profile.Path, Spans);
    if (!Collected)
      return Collected.takeError();
    Shards.emplace_back(Spans, std::make_unique<ShardEvents>(std::move(*Collected)));
    return Shards.back().second.get();
  }

  /// The recorded binary's globals (readLinkedGlobals), read when objects are first
  /// loaded: the GOT loads their link relaxed. Empty if the binary cannot be read (or
  /// was rebuilt): objects then relax the loads of what they define themselves.
  std::optional<llvm::StringSet<>> LinkedGlobals;

  llvm::StringRef recordedPath() const {
    return Opts.RecordedBinary.empty() ? llvm::StringRef(Profile.Header.BinaryPath)
                                       : llvm::StringRef(Opts.RecordedBinary);
  }

  /// The code of \p Path, a binary or objects (as linked into the recorded binary);
  /// for objects, takes Lock (the binary's globals are read once).
  llvm::Expected<CodeImage> load(llvm::StringRef Path) {
    if (!llvm::sys::fs::is_directory(Path))
      return CodeImage::load(Path);
    {
      std::lock_guard<std::mutex> Guard(Lock);
      if (!LinkedGlobals) {
        auto Read = readLinkedGlobals(recordedPath(), Profile.Header.Identity);
        if (!Read)
          llvm::consumeError(Read.takeError());
        LinkedGlobals = Read ? std::move(*Read) : llvm::StringSet<>();
      }
    } // kept, never replaced: safe to read unlocked
    return CodeImage::load(Path, &*LinkedGlobals);
  }

  /// The recorded binary; Lock held. A failure is not kept: the next call tries again.
  llvm::Expected<const CodeImage *> recorded() {
    if (!Recorded) {
      auto Loaded = loadRecordedBinary(Profile.Path, Profile.Header, recordedPath());
      if (!Loaded)
        return Loaded.takeError();
      Recorded = std::move(*Loaded);
    }
    return &*Recorded;
  }

  /// The exact replay of the recorded binary (loaded); Lock held.
  llvm::Expected<const Replayed *> referenceRun(Progress &Bar) {
    if (ReferenceRun) {
      Bar.advance(Profile.Instructions); // as a replay read from the cache does
      return &*ReferenceRun;
    }
    if (!Reference)
      Reference = matchToTrace(Profile, *Recorded, nullptr);
    auto Run = replayExactly(Opts, Profile, TraceHash, *Reference, Bar,
                             /*RecordEvents=*/true);
    if (!Run)
      return Run.takeError();
    ReferenceRun = std::move(*Run);
    return &*ReferenceRun;
  }
};

ReplayContext::ReplayContext() : S(std::make_unique<State>()) {}
ReplayContext::~ReplayContext() = default;

llvm::Expected<std::unique_ptr<ReplayContext>>
ReplayContext::create(const ReplayOptions &Opts) {
  if (llvm::Error E = Opts.Chunks.check())
    return E;
  auto Profile = profileTrace(Opts.Trace);
  if (!Profile)
    return Profile.takeError();
  if (Opts.Unmapped == UnmappedPolicy::Replay && !Profile->KeepsUnmappedCode)
    return inputError(Opts.Trace, "holds no bytes of unmapped code to replay (record it "
                                  "with trace record --keep-unmapped, or use --unmapped "
                                  "skip)");
  if (Opts.LoadDependences && Opts.Engine != EngineKind::Flow)
    return inputError("--load-dependences", "only the flow engine uses them");
  if (Opts.LoadDependences && !Profile->HasLoadDependences)
    return inputError(Opts.Trace, "has no load dependences (record it again with this "
                                  "mlgo-ra's trace record, without --no-load-dependences)");
  std::unique_ptr<ReplayContext> C(new ReplayContext());
  State &S = *C->S;
  S.Opts = Opts;
  S.Profile = std::move(*Profile);
  // --exact always simulates: it is the reference, never read from the cache.
  if (!Opts.Exact && !Opts.CacheDir.empty()) {
    auto Hash = hashTrace(S.Profile.Path);
    if (!Hash)
      return Hash.takeError();
    S.TraceHash = std::move(*Hash);
  }
  bool Long = AutoShard::fits(S.Profile.ThreadEvents);
  S.Opts.AutoShard = Opts.AutoShard && !Opts.Spans.samples() && Long;
  if (S.Opts.AutoShard && Opts.KeepAutoShard) {
    AutoShard::sampleIn(S.Opts.Spans);
    S.Opts.AutoShard = false;
  }
  return C;
}

const ReplayOptions &ReplayContext::options() const { return S->Opts; }

llvm::Expected<ReplayResult> ReplayContext::predict(llvm::StringRef Code) {
  const ReplayOptions &Opts = S->Opts;
  const TraceProfile &Profile = S->Profile;
  auto Image = S->load(Code);
  if (!Image)
    return Image.takeError();
  // The recorded binary is the fast replay's reference, and the code of mismatched
  // functions with UseBaseline. Fast replay without it is exact.
  const CodeImage *Recorded = nullptr;
  VariantCode Matched = matchToTrace(Profile, *Image, nullptr);
  bool NeedsFallback = !Matched.mismatches().empty() &&
                       Opts.OnCfgMismatch == CfgMismatchPolicy::UseBaseline;
  if (NeedsFallback || !Opts.Exact) {
    std::lock_guard<std::mutex> Guard(S->Lock);
    auto Loaded = S->recorded();
    if (Loaded)
      Recorded = *Loaded;
    else if (NeedsFallback)
      return Loaded.takeError();
    else
      llvm::consumeError(Loaded.takeError());
  }
  if (NeedsFallback)
    Matched = matchToTrace(Profile, *Image, Recorded);
  if (llvm::Error E = requireResolved(Matched, NeedsFallback))
    return E;
  Progress Bar("replay", Profile.Instructions, Opts.ShowProgress);
  if (Opts.Exact || !Recorded) {
    ReplayOptions Exactly = Opts;
    Exactly.CacheDir.clear(); // --exact is the reference: it always simulates
    auto R = replayExactly(Exactly, Profile, "", Matched, Bar);
    if (!R)
      return R.takeError();
    return makeResult(Opts, Profile, Matched, *R, true);
  }
  const Replayed *Reference = nullptr;
  {
    std::lock_guard<std::mutex> Guard(S->Lock);
    auto Run = S->referenceRun(Bar);
    if (!Run)
      return Run.takeError();
    Reference = *Run; // kept, never replaced: safe to read unlocked
  }
  auto R = replayFast(Opts, Profile, Matched, *S->Reference, *Reference, Bar,
                      [&](const SpanSettings &Spans) { return S->shard(Spans); });
  if (!R)
    return R.takeError();
  return makeFastResult(Profile, Matched, *R);
}

llvm::Expected<ReplayComparison> ReplayContext::compare(llvm::StringRef Baseline,
                                                        llvm::StringRef Candidate) {
  const ReplayOptions &Opts = S->Opts;
  const TraceProfile &Profile = S->Profile;
  auto BaselineImage = llvm::sys::fs::is_directory(Baseline)
                           ? S->load(Baseline)
                           : loadRecordedBinary(Profile.Path, Profile.Header, Baseline);
  if (!BaselineImage)
    return BaselineImage.takeError();
  auto CandidateImage = S->load(Candidate);
  if (!CandidateImage)
    return CandidateImage.takeError();
  const CodeImage *Fallback =
      Opts.OnCfgMismatch == CfgMismatchPolicy::UseBaseline ? &*BaselineImage : nullptr;
  VariantCode BaselineCode = matchToTrace(Profile, *BaselineImage, nullptr);
  VariantCode CandidateCode = matchToTrace(Profile, *CandidateImage, Fallback);
  if (llvm::Error E = requireResolved(BaselineCode, false))
    return E;
  if (llvm::Error E = requireResolved(CandidateCode, Fallback != nullptr))
    return E;

  Progress Bar("replay", 2 * Profile.Instructions, Opts.ShowProgress);
  if (!Opts.Exact && !Opts.Explain.Functions) {
    // The baseline is replayed exactly (or found in the cache), then the candidate
    // against it.
    auto BaselineRun = replayExactly(Opts, Profile, S->TraceHash, BaselineCode, Bar, true);
    if (!BaselineRun)
      return BaselineRun.takeError();
    auto CandidateRun =
        replayFast(Opts, Profile, CandidateCode, BaselineCode, *BaselineRun, Bar,
                   [&](const SpanSettings &Spans) { return S->shard(Spans); });
    if (!CandidateRun)
      return CandidateRun.takeError();
    return ReplayComparison{makeResult(Opts, Profile, BaselineCode, *BaselineRun, true),
                            makeFastResult(Profile, CandidateCode, *CandidateRun),
                            std::nullopt, std::nullopt};
  }
  // --exact (or --explain): the two replays are independent, one per core, and never
  // cached.
  ReplayOptions Exactly = Opts;
  Exactly.CacheDir.clear();
  std::optional<llvm::Expected<Replayed>> BaselineRun;
  std::thread Worker(
      [&] { BaselineRun = replayExactly(Exactly, Profile, "", BaselineCode, Bar); });
  auto CandidateRun = replayExactly(Exactly, Profile, "", CandidateCode, Bar);
  Worker.join();
  if (!*BaselineRun) {
    llvm::consumeError(CandidateRun.takeError());
    return BaselineRun->takeError();
  }
  if (!CandidateRun)
    return CandidateRun.takeError();
  ReplayComparison Out{makeResult(Opts, Profile, BaselineCode, **BaselineRun, true),
                       makeResult(Opts, Profile, CandidateCode, *CandidateRun, true),
                       std::nullopt, std::nullopt};
  if (Opts.Explain.Functions) {
    auto Explained = explainChanges(Out, Profile.Header, *BaselineImage, *CandidateImage,
                                    CandidateCode.mismatches(), (*BaselineRun)->Costs.Profile,
                                    CandidateRun->Costs.Profile, Opts.Explain);
    if (!Explained)
      return Explained.takeError();
    Out.Explanations = std::move(*Explained);
  }
  return Out;
}

llvm::Error checkRecordedBinary(llvm::StringRef Trace, llvm::StringRef Binary) {
  auto Reader = SegmentTraceReader::open(Trace); // reads only the header
  if (!Reader)
    return Reader.takeError();
  auto Image = loadRecordedBinary(Trace, (*Reader)->header(), Binary);
  return Image ? llvm::Error::success() : Image.takeError();
}

} // namespace mlgo
