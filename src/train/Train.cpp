/// \file
/// The ES loop: evaluate the policy and its antithetic perturbations, estimate the
/// gradient from the shaped rewards of its (top) pairs, step with Adam, log, checkpoint.
#include "Train.h"
#include "Adam.h"
#include "Checkpoint.h"
#include "Directions.h"
#include "Evaluator.h"
#include "JobSet.h"
#include "Gradient.h"
#include "RunDirectory.h"
#include "StepEvaluations.h"
#include "Team.h"
#include "Validation.h"
#include "compile/InteractiveCompile.h"
#include "policy/Policy.h"
#include "replay/Replay.h"
#include "support/Error.h"
#include "support/ParallelWork.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

namespace mlgo {

namespace {

/// A step is skipped when fewer evaluations than this share succeed (reference ES).
constexpr double MinSuccessShare = 0.4;

/// The starting policy, which must have parameters to train.
llvm::Expected<Policy> loadInitialPolicy(const TrainOptions &Opts) {
  auto Init = loadPolicy(Opts.Search.Init);
  if (!Init)
    return Init.takeError();
  if (!Init->usesAdvisor())
    return inputError(Opts.Search.Init, "has no parameters to train (it is LLVM's own heuristic); "
                                 "start from a network policy such as 'initial'");
  return Init;
}

/// Names this rank's variants apart from other ranks' in the shared work directory.
std::string variantPrefix(const Team &T) { return fmt::format("r{}-", T.rank()); }

/// Writes the shortlist's policies and its index (TrainShortlistFile) into \p Out.
llvm::Error saveShortlist(const Policy &Init, const Shortlist &List, const std::string &Out) {
  std::string Directory = Out + "/" + TrainShortlistDirectory;
  if (std::error_code EC = llvm::sys::fs::create_directories(Directory))
    return inputError(Directory, "cannot create: {}", EC.message());
  Json Index = Json::array();
  for (size_t I = 0; I < List.entries().size(); ++I) {
    const ShortlistEntry &E = List.entries()[I];
    std::string Number = std::to_string(I + 1), Name = Number + ".json";
    Policy Listed = withParameters(Init, E.Parameters, "shortlist-" + Number);
    if (llvm::Error Err = savePolicy(Listed, Directory + "/" + Name))
      return Err;
    Index.push_back({{"policy", std::string(TrainShortlistDirectory) + "/" + Name},
                     {"speedup", E.Speedup},
                     {"step", E.Step}});
  }
  return writeJsonFile(Out + "/" + TrainShortlistFile, Index);
}

/// Writes what the checkpoint \p State decides (the policies after its last step, the
/// shortlist) into \p Out.
llvm::Error saveCheckpointedFiles(const Policy &Init, const Checkpoint &State,
                                  const std::string &Out, const TrainOptions &Opts) {
  if (State.NextStep) {
    if (llvm::Error E = savePolicy(withParameters(Init, State.Parameters, "trained"),
                                   Out + "/" + TrainPolicyFile))
      return E;
    if (llvm::Error E = savePolicy(withParameters(Init, State.BestParameters, "best"),
                                   Out + "/" + TrainBestPolicyFile))
      return E;
  }
  if (Opts.Search.ShortlistSize)
    return saveShortlist(Init, State.Shortlisted, Out);
  return llvm::Error::success();
}

/// Evaluates this rank's share of \p Step around \p Parameters and gathers every
/// rank's evaluations on the leader.
llvm::Expected<std::vector<StepEvaluation>>
evaluateStep(Team &T, JobSet &Eval, const Policy &Init, const TrainOptions &Opts,
             uint64_t Step, const std::vector<float> &Parameters,
             std::vector<std::vector<float>> &Directions) {
  Directions.assign(Opts.Search.Perturbations, {});
  for (uint32_t D = 0; D < Opts.Search.Perturbations; ++D)
    Directions[D] = perturbationDirection(Opts.Search.Seed, Step, D, Parameters.size());
  std::vector<StepEvaluation> Evaluations = layoutStep(Opts.Search.Perturbations);
  StepShare Share;
  Share.Step = Step;
  Share.Offset = T.rank();
  Share.Stride = T.size();
  Share.Jobs = Opts.Evaluation.Jobs;
  Share.Sigma = Opts.Search.Sigma;
  Share.NamePrefix = variantPrefix(T);
  if (llvm::Error E = evaluateShare(Eval, Init, Parameters, Directions, Share, Evaluations))
    return E;
  if (llvm::Error E = T.gather(Evaluations))
    return E;
  return Evaluations;
}

/// A rank other than the leader: evaluates its share of each step it is sent.
llvm::Expected<TrainResult> follow(Team &T, JobSet &Jobs) {
  const TrainOptions &Opts = Jobs.options();
  auto Init = loadInitialPolicy(Opts);
  if (!Init)
    return Init.takeError();
  uint64_t Step = 0;
  std::vector<float> Parameters;
  std::vector<std::vector<float>> Directions;
  while (true) {
    auto More = T.shareStep(Step, Parameters);
    if (!More)
      return More.takeError();
    if (!*More)
      return TrainResult();
    // Only once the leader has checked and locked the output directory (it shares a
    // step after that) does this rank write into it.
    if (!Jobs.haveEvaluators())
      if (llvm::Error E = Jobs.makeEvaluators(variantPrefix(T)))
        return E;
    auto Evaluations = evaluateStep(T, Jobs, *Init, Opts, Step, Parameters, Directions);
    if (!Evaluations)
      return Evaluations.takeError();
  }
}

/// Rank 0 (or the only process): the optimizer, the log and the checkpoint.
llvm::Expected<TrainResult> lead(Team &T, JobSet &Jobs) {
  const TrainOptions &Opts = Jobs.options();
  auto Init = loadInitialPolicy(Opts);
  if (!Init)
    return Init.takeError();
  std::string Out = Opts.Run.Output;
  std::string CheckpointPath = Out + "/" + TrainCheckpointFile;
  std::string LogPath = Out + "/" + TrainLogFile;
  // Nothing is written into a directory that is not a run's.
  if (llvm::Error E = checkRunDirectory(Out, Opts.Run.Resume))
    return E;
  if (std::error_code EC = llvm::sys::fs::create_directories(Out))
    return inputError(Out, "cannot create: {}", EC.message());
  RunLock Lock(Out);
  if (!Lock.held())
    return inputError(Out, "is in use by another training run");
  bool HaveCheckpoint = llvm::sys::fs::exists(CheckpointPath);
  if (HaveCheckpoint && !Opts.Run.Resume)
    return inputError(Out, "already holds a training run; continue it with --resume or "
                           "train into another directory");
  if (!HaveCheckpoint && Opts.Run.Resume)
    return inputError(CheckpointPath, "does not exist: nothing to resume");

  size_t Size = Init->parameters().size();
  Checkpoint State;
  if (HaveCheckpoint) {
    auto Read = readCheckpoint(CheckpointPath, Opts, Size);
    if (!Read)
      return Read.takeError();
    State = std::move(*Read);
    if (llvm::Error E = truncateLog(LogPath, State.NextStep))
      return E;
    // A run killed or out of disk after its checkpoint may have left these damaged;
    // the checkpoint holds them whole, so they are written again.
    if (llvm::Error E = saveCheckpointedFiles(*Init, State, Out, Opts))
      return E;
  } else {
    State.Parameters = Init->parameters();
    State.BestParameters = State.Parameters;
    State.Optimizer = Adam(Size, Opts.Search.StepSize);
    State.Shortlisted = Shortlist(Opts.Search.ShortlistSize);
    llvm::sys::fs::remove(LogPath);
  }
  if (llvm::Error E = Jobs.makeEvaluators(variantPrefix(T)))
    return E;

  TrainResult Result;
  Result.InitialSpeedup = State.InitialSpeedup;
  for (uint64_t Step = State.NextStep; Step < Opts.Search.Iterations; ++Step) {
    auto StepStart = std::chrono::steady_clock::now();
    uint64_t Announced = Step;
    std::vector<float> Sent = State.Parameters;
    if (auto Shared = T.shareStep(Announced, Sent); !Shared)
      return Shared.takeError();
    std::vector<std::vector<float>> Directions;
    auto Evaluated =
        evaluateStep(T, Jobs, *Init, Opts, Step, State.Parameters, Directions);
    if (!Evaluated)
      return Evaluated.takeError();
    std::vector<StepEvaluation> &Outcomes = *Evaluated;

    // Pairs count only whole: a failed evaluation drops its partner too.
    PairedRewards Pairs = pairRewards(Outcomes, Opts.Search.Perturbations);
    const std::vector<double> &Rewards = Pairs.Rewards;
    unsigned Failures = 0;
    std::string FirstFailure;
    for (const StepEvaluation &O : Outcomes)
      if (!O.Result) {
        ++Failures;
        if (FirstFailure.empty())
          FirstFailure = O.Failure;
      }
    bool Skipped = Rewards.size() < MinSuccessShare * 2 * Opts.Search.Perturbations;
    const std::optional<Evaluation> &Unperturbed = Outcomes[0].Result;

    Json Record = {{"step", Step}};
    Record["unperturbed_speedup"] = Unperturbed ? Json(Unperturbed->Speedup) : Json(nullptr);
    if (!Rewards.empty()) {
      Record["reward_mean"] =
          std::accumulate(Rewards.begin(), Rewards.end(), 0.0) / Rewards.size();
      Record["reward_min"] = *std::min_element(Rewards.begin(), Rewards.end());
      Record["reward_max"] = *std::max_element(Rewards.begin(), Rewards.end());
    }
    // With jobs, the unperturbed policy's speedup on each program (its mean above).
    if (Jobs.hasJobs()) {
      Json PerJob = Json::array();
      Result.FinalJobSpeedups.clear();
      for (size_t J = 0; J < Jobs.size(); ++J) {
        std::optional<double> Speedup;
        if (Unperturbed && J < Unperturbed->JobSpeedups.size())
          Speedup = Unperturbed->JobSpeedups[J];
        PerJob.push_back({{"name", Jobs.program(J).Name},
                          {"unperturbed_speedup", Speedup ? Json(*Speedup) : Json(nullptr)}});
        Result.FinalJobSpeedups.emplace_back(Jobs.program(J).Name, Speedup);
      }
      Record["jobs"] = std::move(PerJob);
    }
    if (Unperturbed) {
      if (Step == 0)
        State.InitialSpeedup = Unperturbed->Speedup;
      Result.FinalSpeedup = Unperturbed->Speedup;
    }
    // The best policy is the best one evaluated, a perturbation too: each evaluation is
    // a whole policy whose predicted speedup is known, and on the rugged reward of
    // discrete decisions the best perturbations gain far more than the policy itself.
    if (std::optional<size_t> StepBest = bestEvaluation(Outcomes);
        StepBest && Outcomes[*StepBest].Result->Speedup > State.BestSpeedup) {
      State.BestSpeedup = Outcomes[*StepBest].Result->Speedup;
      State.BestParameters = evaluatedParameters(Outcomes[*StepBest], State.Parameters,
                                                 Directions, Opts.Search.Sigma);
    }
    bool ShortlistChanged = false;
    for (const StepEvaluation &O : Outcomes)
      if (O.Result)
        ShortlistChanged |= State.Shortlisted.offer(O.Result->Speedup, Step, [&] {
          return evaluatedParameters(O, State.Parameters, Directions, Opts.Search.Sigma);
        });
    if (!Skipped) {
      std::vector<double> Gradient = esGradient(
          Pairs, Directions, {Opts.Search.Sigma, Opts.Search.Shaping, Opts.Search.TopDirections}, Size);
      if (std::optional<size_t> Bad = State.Optimizer.step(State.Parameters, Gradient))
        return stageError("step {}: Adam's update would take parameter {} beyond the "
                          "finite floats (step size {}); stopped {}",
                          Step, *Bad, State.Optimizer.stepSize(),
                          Step ? fmt::format("with the checkpoint of step {}", Step - 1)
                               : std::string("before the first checkpoint"));
    }
    double Compile = 0, Replay = 0;
    unsigned CompilesReused = 0, ReplaysReused = 0;
    for (const StepEvaluation &O : Outcomes)
      if (O.Result) {
        Compile += O.Result->CompileSeconds;
        Replay += O.Result->ReplaySeconds;
        CompilesReused += O.Result->CompileReused;
        ReplaysReused += O.Result->ReplayReused;
      }
    Record["evaluations"] = Outcomes.size();
    Record["failures"] = Failures;
    if (!FirstFailure.empty())
      Record["first_failure"] = FirstFailure;
    Record["skipped"] = Skipped;
    Record["best_speedup"] = State.BestSpeedup;
    Record["compiles_reused"] = CompilesReused;
    Record["replays_reused"] = ReplaysReused;
    Record["compile_seconds"] = Compile;
    Record["replay_seconds"] = Replay;
    Record["seconds"] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - StepStart).count();

    // Log, then policies, then the checkpoint: a run killed in between redoes the step.
    State.NextStep = Step + 1;
    if (llvm::Error E = appendRecord(LogPath, Record))
      return E;
    if (llvm::Error E = savePolicy(withParameters(*Init, State.Parameters, "trained"),
                                   Out + "/" + TrainPolicyFile))
      return E;
    if (llvm::Error E = savePolicy(withParameters(*Init, State.BestParameters, "best"),
                                   Out + "/" + TrainBestPolicyFile))
      return E;
    if (ShortlistChanged)
      if (llvm::Error E = saveShortlist(*Init, State.Shortlisted, Out))
        return E;
    if (llvm::Error E = writeJsonFile(CheckpointPath, State.toJSON(Opts)))
      return E;
    if (Opts.Run.OnStep)
      Opts.Run.OnStep(Record);
  }
  T.release();
  // Every run that has a best policy ends validated, a resumed one too.
  if (State.NextStep) {
    auto Validated = validateJobs(Jobs, *Init, State.NextStep);
    if (!Validated)
      return Validated.takeError();
    if (llvm::Error E = appendRecord(LogPath, *Validated))
      return E;
    Result.Validation = std::move(*Validated);
    if (Opts.Native.enabled()) {
      auto Measured = measureBestNatively(Opts);
      if (!Measured)
        return Measured.takeError();
      Result.Native = std::move(*Measured);
    }
  }
  Result.Steps = State.NextStep;
  Result.InitialSpeedup = State.InitialSpeedup;
  Result.BestSpeedup = State.BestSpeedup;
  Result.BestPolicy = Out + "/" + TrainBestPolicyFile;
  if (Opts.Search.ShortlistSize) {
    Result.Shortlist = Out + "/" + TrainShortlistFile;
    for (const ShortlistEntry &E : State.Shortlisted.entries())
      Result.ShortlistSpeedups.push_back(E.Speedup);
  }
  return Result;
}

} // namespace

llvm::Expected<TrainResult> runTrain(const TrainOptions &Given) {
  if (Given.Search.Perturbations == 0)
    return inputError("--perturbations", "must be at least 1");
  if (Given.Search.TopDirections > Given.Search.Perturbations)
    return inputError("--top-directions", "{} is more than --perturbations ({})",
                      Given.Search.TopDirections, Given.Search.Perturbations);
  // The CLI checks these too; a library caller must not get a policy of NaNs either.
  if (!(std::isfinite(Given.Search.Sigma) && Given.Search.Sigma > 0))
    return inputError("--sigma", "{} is not a positive number", Given.Search.Sigma);
  if (!(std::isfinite(Given.Search.StepSize) && Given.Search.StepSize > 0))
    return inputError("--step-size", "{} is not a positive number", Given.Search.StepSize);
  // Each trace is read once for every evaluation of the run; the automatic shard is
  // its context's decision, and the checkpoint records it.
  auto Jobs = JobSet::create(Given, /*Replaying=*/true);
  if (!Jobs)
    return Jobs.takeError();
  const TrainOptions &Opts = (*Jobs)->options();
  std::unique_ptr<Team> T;
  if (Opts.Run.Mpi) {
    auto Joined = mpiTeam();
    if (!Joined)
      return Joined.takeError();
    T = std::move(*Joined);
  } else {
    T = localTeam();
  }
  auto Result = T->leader() ? lead(*T, **Jobs) : follow(*T, **Jobs);
  // The other ranks wait for this one: an error ends the whole job.
  if (!Result && T->size() > 1)
    T->abort(Opts.Run.ReportError ? Opts.Run.ReportError(Result.takeError()) : 1);
  if (Result)
    Result->Leader = T->leader();
  return Result;
}

llvm::Expected<Json> runValidation(const TrainOptions &Opts) {
  const std::string &Out = Opts.Run.Output;
  std::string CheckpointPath = Out + "/" + TrainCheckpointFile;
  if (!llvm::sys::fs::exists(CheckpointPath))
    return inputError(CheckpointPath, "does not exist: no training run to validate");
  auto Value = readJsonFile(CheckpointPath);
  if (!Value)
    return Value.takeError();
  if (llvm::Error E = checkCheckpointFormat(*Value, CheckpointPath))
    return E;
  RunLock Lock(Out);
  if (!Lock.held())
    return inputError(Out, "is in use by another training run");
  // What the validation replays must be the run's: its corpus, trace, start policy,
  // CPU and engine (the search's settings do not matter).
  auto Settings = getJsonField<Json>(*Value, "settings", CheckpointPath);
  if (!Settings)
    return Settings.takeError();
  Json Want = trainSettings(Opts);
  for (const char *Key : {"corpus", "trace", "jobs", "init", "cpu", "engine"}) {
    Json Have = Settings->contains(Key) ? (*Settings)[Key] : Json();
    Json Given = Want.contains(Key) ? Want[Key] : Json();
    if (Have != Given)
      return inputError(CheckpointPath, "was written with {} {}, not {}; validate with the "
                                        "run's settings",
                        Key, Have.is_null() ? "none" : dumpJson(Have, -1),
                        Given.is_null() ? "none" : dumpJson(Given, -1));
  }
  auto Steps = getJsonField<uint64_t>(*Value, "next_step", CheckpointPath);
  if (!Steps)
    return Steps.takeError();
  if (!*Steps)
    return inputError(Out, "has no trained step yet: nothing to validate");
  auto Jobs = JobSet::create(Opts, /*Replaying=*/false);
  if (!Jobs)
    return Jobs.takeError();
  auto Init = loadInitialPolicy(Opts);
  if (!Init)
    return Init.takeError();
  if (llvm::Error E = (*Jobs)->makeEvaluators(""))
    return E;
  auto Validated = validateJobs(**Jobs, *Init, *Steps);
  if (!Validated)
    return Validated.takeError();
  if (llvm::Error E = appendRecord(Out + "/" + TrainLogFile, *Validated))
    return E;
  return Validated;
}

llvm::Error checkNativeMeasurement(const TrainOptions &Opts) {
  if (!Opts.Native.enabled())
    return llvm::Error::success();
  if (!Opts.Inputs.Programs.empty())
    return inputError("--measure-run", "measures the program of --corpus, --trace and "
                                       "--baseline, not a run with jobs");
  if (Opts.Native.Corpus.empty() || Opts.Native.Link.empty())
    return inputError("--measure-run", "needs --measure-corpus (every module of the "
                                       "program) and --measure-link");
  if (auto Args = nativeRunArguments(Opts.Native.Run); !Args)
    return Args.takeError();
  return llvm::Error::success();
}

llvm::Expected<Json> measureBestNatively(const TrainOptions &Opts) {
  if (llvm::Error E = checkNativeMeasurement(Opts))
    return E;
  std::string Best = Opts.Run.Output + "/" + TrainBestPolicyFile;
  if (!llvm::sys::fs::exists(Best))
    return inputError(Opts.Run.Output, "has no best policy yet: nothing to measure");
  // With a shortlist, every policy on it (shortlist/1.json is best.json's): the
  // measurement chooses among them.
  std::vector<NativeCandidate> Candidates = {{"best", Best}};
  for (unsigned K = 2; K <= Opts.Search.ShortlistSize; ++K) {
    std::string Listed = fmt::format("{}/{}/{}.json", Opts.Run.Output, TrainShortlistDirectory, K);
    if (llvm::sys::fs::exists(Listed))
      Candidates.push_back({fmt::format("s{}", K), Listed});
  }
  if (Opts.Search.Init != "default")
    Candidates.push_back({"start", Opts.Search.Init});
  // The run's compiler and limits; the program named as the traced binary is.
  NativeMeasureOptions Native = Opts.Native;
  if (Native.Program.empty())
    Native.Program = llvm::sys::path::filename(Opts.Inputs.Baseline).str();
  if (Native.CacheDir.empty())
    Native.CacheDir = Opts.Evaluation.CacheDir;
  Native.Clang = Opts.Evaluation.Clang;
  Native.Jobs = Opts.Evaluation.Jobs;
  Native.TimeoutSeconds = Opts.Evaluation.CompileTimeoutSeconds;
  auto Record = measureNatively(Native, Candidates, Opts.Run.Output + "/native");
  if (!Record)
    return Record.takeError();
  if (Opts.Search.ShortlistSize)
    if (llvm::Error E = chooseNatively(*Record, Opts.Run.Output + "/" + TrainChosenPolicyFile))
      return E;
  if (llvm::Error E = appendRecord(Opts.Run.Output + "/" + TrainLogFile, *Record))
    return E;
  return Record;
}

} // namespace mlgo
