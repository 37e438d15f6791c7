/// \file
/// One variant's replay: refill, a cost model, and the result with its functions.
#include "detail/VariantReplay.h"
#include "detail/EngineFactory.h"
#include "detail/ResultCache.h"
#include "replay/engine/ExactModel.h"
#include "replay/fast/ChunkedReplay.h"
#include "replay/fast/SpanModel.h"
#include "replay/refill/ShardEvents.h"
#include "support/Warning.h"

#include "llvm/Support/Path.h"
#include <algorithm>
#include <map>
#include <thread>

namespace mlgo {

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

std::string replayTriple(const ReplayOptions &Opts, const VariantCode &Code) {
  return Opts.Triple.empty() ? Code.variant().triple() : Opts.Triple;
}

namespace {

/// The threads that simulate at once: ReplayOptions::Jobs.
unsigned jobs(const ReplayOptions &Opts) {
  return Opts.Jobs ? Opts.Jobs : std::max(1u, std::thread::hardware_concurrency());
}

LoadWaits loadWaits(const ReplayOptions &Opts, const TraceProfile &Profile) {
  return Opts.LoadDependences ? LoadWaits(Profile.Loads, Profile.Segments.size()) : LoadWaits();
}

using ModelMaker =
    std::function<std::unique_ptr<CostModel>(Engine &, uint32_t NumFunctions)>;

/// Refills the trace with \p Code (paired with \p Reference, if any) into the model
/// \p Make gives.
llvm::Expected<Replayed> replayWith(const ReplayOptions &Opts, const TraceProfile &Profile,
                                    const VariantCode &Code, const VariantCode *Reference,
                                    const ModelMaker &Make, Progress &Bar,
                                    const ShardEvents *Shard = nullptr) {
  auto Cores = createEngine(Opts.Engine, replayTriple(Opts, Code), Opts.CPU, Opts.StackEngine,
                              loadWaits(Opts, Profile), Opts.Core);
  if (!Cores)
    return Cores.takeError();
  auto Reader = SegmentTraceReader::open(Profile.Path);
  if (!Reader)
    return Reader.takeError();
  UnmappedFunctions Unmapped = unmappedFunctions(Opts, Profile);
  std::unique_ptr<CostModel> Model =
      Make(**Cores, Profile.Header.Functions.size() + Unmapped.Names.size());
  uint64_t Reported = 0;
  auto Counts =
      Shard ? refillShard(*Shard, **Reader, Code, *Model, Unmapped.OfModule, Reference)
            : refillTrace(
                  **Reader, Code, *Model, Unmapped.OfModule,
                  [&](uint64_t Done) {
                    Bar.advance(Done - Reported);
                    Reported = Done;
                  },
                  Reference);
  if (Shard)
    Bar.advance(Profile.Instructions);
  if (!Counts)
    return Counts.takeError();
  auto Costs = Model->finish();
  if (!Costs)
    return Costs.takeError();
  return Replayed{*Counts, std::move(*Costs)};
}

/// Exact replay of a trace long enough to be cut into chunks (ChunkSettings.h).
llvm::Expected<Replayed> replayChunked(const ReplayOptions &Opts, const TraceProfile &Profile,
                                       const VariantCode &Code, bool RecordEvents,
                                       Progress &Bar) {
  auto Cores = createEngine(Opts.Engine, replayTriple(Opts, Code), Opts.CPU, Opts.StackEngine,
                              loadWaits(Opts, Profile), Opts.Core);
  if (!Cores)
    return Cores.takeError();
  UnmappedFunctions Unmapped = unmappedFunctions(Opts, Profile);
  return replayInChunks(**Cores, Profile, Code, Unmapped.OfModule,
                        Profile.Header.Functions.size() + Unmapped.Names.size(), Opts.Chunks,
                        jobs(Opts), RecordEvents, Bar);
}

} // namespace

llvm::Expected<Replayed> replayExactly(const ReplayOptions &Opts, const TraceProfile &Profile,
                                       llvm::StringRef TraceHash, const VariantCode &Code,
                                       Progress &Bar, bool RecordEvents) {
  // The cache keeps no instruction profiles: a replay that wants one simulates.
  bool ProfileInstructions = Opts.Explain.Functions > 0;
  std::string Key;
  if (!Opts.CacheDir.empty() && !ProfileInstructions)
    Key = replayCacheKey(Opts, TraceHash, Profile.Instructions, Code);
  if (!Key.empty()) {
    if (std::optional<Replayed> Cached = loadCachedReplay(Opts.CacheDir, Key)) {
      Bar.advance(Profile.Instructions);
      return *Cached;
    }
  }
  // Instruction profiles (--explain) come from one core per thread, never in chunks.
  auto R = Opts.Chunks.count(Profile.Instructions) > 1 && !ProfileInstructions
               ? replayChunked(Opts, Profile, Code, RecordEvents || !Key.empty(), Bar)
               : replayWith(
                     Opts, Profile, Code, nullptr,
                     [&](Engine &Cores, uint32_t NumFunctions) {
                       return std::make_unique<ExactModel>(Cores, NumFunctions,
                                                           RecordEvents || !Key.empty(),
                                                           ProfileInstructions);
                     },
                     Bar);
  // The cache only saves time: one that cannot be written costs the next run a replay,
  // not this run its result.
  if (R && !Key.empty())
    if (llvm::Error E = storeCachedReplay(Opts.CacheDir, Key, *R))
      warn("--cache-dir: cannot keep this replay: {}", llvm::toString(std::move(E)));
  return R;
}

llvm::Expected<Replayed> replayAgainst(const ReplayOptions &Opts, const TraceProfile &Profile,
                                       const VariantCode &Code, const VariantCode &Reference,
                                       const Replayed &ReferenceRun, Progress &Bar,
                                       const ShardEvents *Shard) {
  unsigned Jobs = jobs(Opts);
  auto Run = replayWith(
      Opts, Profile, Code, &Reference,
      [&](Engine &Cores, uint32_t NumFunctions) {
        return std::make_unique<SpanModel>(Cores, NumFunctions, Opts.Spans, Jobs,
                                           ReferenceRun.Costs);
      },
      Bar, Shard);
  // A shard's refill counts its own events; the trace's are the reference's.
  if (Run && Shard)
    Run->Counts = ReferenceRun.Counts;
  return Run;
}

} // namespace mlgo
