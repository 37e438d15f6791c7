/// \file
/// Writing and reading checkpoints.
#include "Checkpoint.h"
#include "replay/fast/Sampling.h"
#include "support/Error.h"

namespace mlgo {

static constexpr const char *CheckpointFormat = "mlgo-ra.train-checkpoint";
static constexpr int CheckpointVersion = 1;

/// The pairs a step keeps at most: --top-directions, or all of them.
static unsigned keptDirections(const SearchOptions &Search) {
  return Search.TopDirections ? Search.TopDirections : Search.Perturbations;
}

Json trainSettings(const TrainOptions &Opts) {
  const SearchOptions &Search = Opts.Search;
  const EvaluationOptions &Evaluation = Opts.Evaluation;
  const SpanSettings &Spans = Evaluation.Spans;
  Json Settings = {{"corpus", Opts.Inputs.Corpus},  {"trace", Opts.Inputs.Trace},
                   {"init", Search.Init},           {"perturbations", Search.Perturbations},
                   {"sigma", Search.Sigma},         {"step_size", Search.StepSize},
                   {"seed", Search.Seed},           {"cpu", Evaluation.CPU},
                   {"sample", Spans.samples() ? samplingName(Spans) : "none"}};
  // The search's shaping: checkpoints from before these settings read as z-scores over
  // every pair (readCheckpoint).
  Settings["fitness"] = fitnessName(Search.Shaping);
  Settings["top_directions"] = keptDirections(Search);
  // Only with a shortlist: checkpoints from before it resume as they are.
  if (Search.ShortlistSize)
    Settings["shortlist"] = Search.ShortlistSize;
  // Only with a core profile, its numbers: checkpoints from before profiles resume
  // without one.
  if (!Evaluation.Core.empty())
    Settings["core_profile"] = Evaluation.Core.identity();
  // Only when not MCA: checkpoints from before the flow engine resume as they are.
  if (Evaluation.Engine != EngineKind::Mca)
    Settings["engine"] = engineName(Evaluation.Engine);
  // Only with native cycles: they make the rewards the whole run's.
  if (Opts.Inputs.NativeCycles)
    Settings["native_cycles"] = *Opts.Inputs.NativeCycles;
  // With jobs: the programs, in order, and each one's shard in place of the classic
  // run's corpus, trace and shard (a classic run's checkpoint is as before jobs).
  if (!Opts.Inputs.Programs.empty()) {
    Settings.erase("corpus");
    Settings.erase("trace");
    Json Jobs = Json::array(), Samples = Json::array();
    for (const TrainProgram &P : Opts.Inputs.Programs) {
      Jobs.push_back({{"name", P.Name}, {"corpus", P.Corpus}, {"trace", P.Trace}});
      if (P.NativeCycles)
        Jobs.back()["native_cycles"] = *P.NativeCycles;
      const SpanSettings &Shard = P.Spans ? *P.Spans : Spans;
      Samples.push_back(Shard.samples() ? samplingName(Shard) : "none");
    }
    Settings["sample"] = std::move(Samples);
    // First: a resume with other programs is refused for them, not for their shards.
    Json WithJobs = {{"jobs", std::move(Jobs)}};
    WithJobs.update(Settings);
    return WithJobs;
  }
  return Settings;
}

Json Checkpoint::toJSON(const TrainOptions &Opts) const {
  Json Value = {{"format", CheckpointFormat},
                {"version", CheckpointVersion},
                {"settings", trainSettings(Opts)},
                {"next_step", NextStep},
                {"parameters", Parameters},
                {"optimizer", Optimizer.toJSON()},
                {"initial_speedup", InitialSpeedup},
                {"best_speedup", BestSpeedup},
                {"best_parameters", BestParameters}};
  if (Opts.Search.ShortlistSize)
    Value["shortlist"] = Shortlisted.toJSON();
  return Value;
}

llvm::Error checkCheckpointFormat(const Json &Value, llvm::StringRef Path) {
  auto Format = getJsonField<std::string>(Value, "format", Path);
  if (!Format)
    return Format.takeError();
  if (*Format != CheckpointFormat)
    return inputError(Path, "not a training checkpoint (format '{}')", *Format);
  auto Version = getJsonField<int>(Value, "version", Path);
  if (!Version)
    return Version.takeError();
  if (*Version != CheckpointVersion)
    return inputError(Path, "checkpoint version {} (this mlgo-ra reads {})", *Version,
                      CheckpointVersion);
  return llvm::Error::success();
}

llvm::Expected<Checkpoint> readCheckpoint(const std::string &Path, const TrainOptions &Opts,
                                          size_t Size) {
  auto Value = readJsonFile(Path);
  if (!Value)
    return Value.takeError();
  if (llvm::Error E = checkCheckpointFormat(*Value, Path))
    return E;
  auto Settings = getJsonField<Json>(*Value, "settings", Path);
  if (!Settings)
    return Settings.takeError();
  Json Expected = trainSettings(Opts);
  // Written before --fitness and --top-directions: those runs shaped by z-scores and
  // kept every pair.
  if (!Settings->contains("fitness"))
    (*Settings)["fitness"] = fitnessName(Fitness::ZScore);
  if (!Settings->contains("top_directions") && Settings->contains("perturbations"))
    (*Settings)["top_directions"] = (*Settings)["perturbations"];
  for (const auto &[Key, Want] : Expected.items())
    if (!Settings->contains(Key) || (*Settings)[Key] != Want)
      return inputError(Path, "was written with {} {}, not {}; resume with the same "
                              "settings", Key,
                        Settings->contains(Key) ? dumpJson((*Settings)[Key], -1) : "none",
                        dumpJson(Want, -1));
  // Settings written only when used: a run with a shortlist keeps it (resuming without
  // one would drop it), a run under a core profile keeps its reward.
  for (const char *Key : {"shortlist", "core_profile", "native_cycles"})
    if (Settings->contains(Key) && !Expected.contains(Key))
      return inputError(Path, "was written with {} {}, not none; resume with the same "
                              "settings",
                        Key, dumpJson((*Settings)[Key], -1));
  // Numbers are read as their types hold them exactly (getJsonField): the parameters
  // finite floats, the speedups finite doubles.
  Checkpoint C;
  auto Next = getJsonField<uint64_t>(*Value, "next_step", Path);
  if (!Next)
    return Next.takeError();
  auto Params = getJsonField<std::vector<float>>(*Value, "parameters", Path);
  if (!Params)
    return Params.takeError();
  auto Best = getJsonField<std::vector<float>>(*Value, "best_parameters", Path);
  if (!Best)
    return Best.takeError();
  auto Initial = getJsonField<double>(*Value, "initial_speedup", Path);
  if (!Initial)
    return Initial.takeError();
  auto BestSpeedup = getJsonField<double>(*Value, "best_speedup", Path);
  if (!BestSpeedup)
    return BestSpeedup.takeError();
  auto Optimizer = getJsonField<Json>(*Value, "optimizer", Path);
  if (!Optimizer)
    return Optimizer.takeError();
  auto A = Adam::fromJSON(*Optimizer, Path);
  if (!A)
    return A.takeError();
  if (Params->size() != Size || Best->size() != Size || A->size() != Size)
    return inputError(Path, "holds {} parameters, {} best parameters and {} moments; the "
                            "policy has {} parameters",
                      Params->size(), Best->size(), A->size(), Size);
  C.NextStep = *Next;
  C.Parameters = std::move(*Params);
  C.BestParameters = std::move(*Best);
  C.InitialSpeedup = *Initial;
  C.BestSpeedup = *BestSpeedup;
  C.Optimizer = std::move(*A);
  unsigned ShortlistSize = Opts.Search.ShortlistSize;
  C.Shortlisted = Shortlist(ShortlistSize);
  if (ShortlistSize) {
    auto List = getJsonField<Json>(*Value, "shortlist", Path);
    if (!List)
      return List.takeError();
    auto Read = Shortlist::fromJSON(*List, ShortlistSize, Size, Path);
    if (!Read)
      return Read.takeError();
    C.Shortlisted = std::move(*Read);
  }
  return C;
}

} // namespace mlgo
