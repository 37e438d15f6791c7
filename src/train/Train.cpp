/// \file
/// The ES loop: evaluate the policy and its antithetic perturbations, estimate the
/// gradient from z-scored rewards, step with Adam, log, checkpoint.
#include "Train.h"
#include "Adam.h"
#include "Directions.h"
#include "Evaluator.h"
#include "StepEvaluations.h"
#include "Team.h"
#include "compile/InteractiveCompile.h"
#include "policy/Policy.h"
#include "support/Error.h"
#include "support/OutputFile.h"
#include "support/ParallelWork.h"
#include "trace/TraceProfile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace mlgo {

namespace {

/// A step is skipped when fewer evaluations than this share succeed (reference ES).
constexpr double MinSuccessShare = 0.4;

/// The settings a resumed run must share with the run it continues.
Json settingsOf(const TrainOptions &Opts) {
  return {{"corpus", Opts.Corpus},       {"trace", Opts.Trace},
          {"init", Opts.Init},           {"perturbations", Opts.Perturbations},
          {"sigma", Opts.Sigma},         {"step_size", Opts.StepSize},
          {"seed", Opts.Seed},           {"cpu", Opts.CPU},
          {"sample", Opts.Spans.samples() ? samplingName(Opts.Spans) : "none"}};
}

struct Checkpoint {
  uint64_t NextStep = 0;
  std::vector<float> Parameters;
  Adam Optimizer;
  double InitialSpeedup = 0;
  double BestSpeedup = std::numeric_limits<double>::lowest(); ///< none yet
  std::vector<float> BestParameters;

  Json toJSON(const TrainOptions &Opts) const {
    return {{"format", "mlgo-ra.train-checkpoint"},
            {"version", 1},
            {"settings", settingsOf(Opts)},
            {"next_step", NextStep},
            {"parameters", Parameters},
            {"optimizer", Optimizer.toJSON()},
            {"initial_speedup", InitialSpeedup},
            {"best_speedup", BestSpeedup},
            {"best_parameters", BestParameters}};
  }
};

llvm::Expected<Checkpoint> readCheckpoint(const std::string &Path, const TrainOptions &Opts,
                                          size_t Size) {
  auto Value = readJsonFile(Path);
  if (!Value)
    return Value.takeError();
  auto Settings = getJsonField<Json>(*Value, "settings", Path);
  if (!Settings)
    return Settings.takeError();
  Json Expected = settingsOf(Opts);
  for (const auto &[Key, Want] : Expected.items())
    if (!Settings->contains(Key) || (*Settings)[Key] != Want)
      return inputError(Path, "was written with {} {}, not {}; resume with the same "
                              "settings", Key,
                        Settings->contains(Key) ? dumpJson((*Settings)[Key], -1) : "none",
                        dumpJson(Want, -1));
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
  if (Params->size() != Size || Best->size() != Size)
    return inputError(Path, "holds {} parameters; the policy has {}", Params->size(), Size);
  C.NextStep = *Next;
  C.Parameters = std::move(*Params);
  C.BestParameters = std::move(*Best);
  C.InitialSpeedup = *Initial;
  C.BestSpeedup = *BestSpeedup;
  C.Optimizer = std::move(*A);
  return C;
}

/// Keeps the log's records of steps before \p NextStep: a run killed after logging a
/// step but before its checkpoint redoes that step.
llvm::Error truncateLog(const std::string &Path, uint64_t NextStep) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return llvm::Error::success(); // no log yet
  std::string Kept;
  llvm::SmallVector<llvm::StringRef> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n', -1, false);
  for (llvm::StringRef Line : Lines) {
    Json Record = Json::parse(Line.str(), nullptr, false);
    if (Record.is_discarded() || !Record.contains("step") || !Record["step"].is_number())
      return inputError(Path, "holds a line that is not a step record");
    if (Record["step"].get<uint64_t>() < NextStep)
      Kept += Line.str() + "\n";
  }
  return writeFileAtomically(Path, Kept);
}

llvm::Error appendLine(const std::string &Path, const std::string &Line) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Append);
  if (EC)
    return stageError("{}: cannot write: {}", Path, EC.message());
  OS << Line << "\n";
  OS.close();
  if (OS.has_error())
    return stageError("{}: cannot write: {}", Path, OS.error().message());
  return llvm::Error::success();
}

/// An exclusive lock on a training directory.
class RunLock {
public:
  explicit RunLock(const std::string &Path)
      : Fd(::open(Path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644)) {
    Held = Fd >= 0 && ::flock(Fd, LOCK_EX | LOCK_NB) == 0;
  }
  ~RunLock() {
    if (Fd >= 0)
      ::close(Fd);
  }
  bool held() const { return Held; }

private:
  int Fd;
  bool Held = false;
};

/// The starting policy, which must have parameters to train.
llvm::Expected<Policy> loadInitialPolicy(const TrainOptions &Opts) {
  auto Init = loadPolicy(Opts.Init);
  if (!Init)
    return Init.takeError();
  if (!Init->usesAdvisor())
    return inputError(Opts.Init, "has no parameters to train (it is LLVM's own heuristic); "
                                 "start from a network policy such as 'initial'");
  return Init;
}

/// Names this rank's variants apart from other ranks' in the shared work directory.
std::string variantPrefix(const Team &T) { return fmt::format("r{}-", T.rank()); }

llvm::Expected<std::unique_ptr<Evaluator>> makeEvaluator(const TrainOptions &Opts,
                                                         const Team &T) {
  EvaluatorOptions Evaluating;
  Evaluating.Corpus = Opts.Corpus;
  Evaluating.Trace = Opts.Trace;
  Evaluating.Baseline = Opts.Baseline;
  Evaluating.WorkDir = Opts.Output + "/work";
  Evaluating.NamePrefix = variantPrefix(T);
  Evaluating.Clang = Opts.Clang;
  Evaluating.CPU = Opts.CPU;
  Evaluating.Spans = Opts.Spans;
  Evaluating.Jobs = Opts.Jobs;
  Evaluating.CompileTimeoutSeconds = Opts.CompileTimeoutSeconds;
  return Evaluator::create(Evaluating);
}

/// Evaluates this rank's share of \p Step around \p Parameters and gathers every
/// rank's evaluations on the leader.
llvm::Expected<std::vector<StepEvaluation>>
evaluateStep(Team &T, Evaluator &Eval, const Policy &Init, const TrainOptions &Opts,
             uint64_t Step, const std::vector<float> &Parameters,
             std::vector<std::vector<float>> &Directions) {
  Directions.assign(Opts.Perturbations, {});
  for (uint32_t D = 0; D < Opts.Perturbations; ++D)
    Directions[D] = perturbationDirection(Opts.Seed, Step, D, Parameters.size());
  std::vector<StepEvaluation> Evaluations = layoutStep(Opts.Perturbations);
  StepShare Share;
  Share.Step = Step;
  Share.Offset = T.rank();
  Share.Stride = T.size();
  Share.Jobs = Opts.Jobs;
  Share.Sigma = Opts.Sigma;
  Share.NamePrefix = variantPrefix(T);
  if (llvm::Error E = evaluateShare(Eval, Init, Parameters, Directions, Share, Evaluations))
    return E;
  if (llvm::Error E = T.gather(Evaluations))
    return E;
  return Evaluations;
}

/// A rank other than the leader: evaluates its share of each step it is sent.
llvm::Expected<TrainResult> follow(Team &T, const TrainOptions &Opts) {
  auto Init = loadInitialPolicy(Opts);
  if (!Init)
    return Init.takeError();
  auto Eval = makeEvaluator(Opts, T);
  if (!Eval)
    return Eval.takeError();
  uint64_t Step = 0;
  std::vector<float> Parameters;
  std::vector<std::vector<float>> Directions;
  while (true) {
    auto More = T.shareStep(Step, Parameters);
    if (!More)
      return More.takeError();
    if (!*More)
      return TrainResult();
    auto Evaluations = evaluateStep(T, **Eval, *Init, Opts, Step, Parameters, Directions);
    if (!Evaluations)
      return Evaluations.takeError();
  }
}

/// Rank 0 (or the only process): the optimizer, the log and the checkpoint.
llvm::Expected<TrainResult> lead(Team &T, const TrainOptions &Opts) {
  auto Init = loadInitialPolicy(Opts);
  if (!Init)
    return Init.takeError();
  std::string Out = Opts.Output;
  std::string CheckpointPath = Out + "/" + TrainCheckpointFile;
  std::string LogPath = Out + "/" + TrainLogFile;
  if (std::error_code EC = llvm::sys::fs::create_directories(Out))
    return inputError(Out, "cannot create: {}", EC.message());
  // Released when training returns or the process exits, however it exits.
  RunLock Lock(Out + "/lock");
  if (!Lock.held())
    return inputError(Out, "is in use by another training run");
  bool HaveCheckpoint = llvm::sys::fs::exists(CheckpointPath);
  if (HaveCheckpoint && !Opts.Resume)
    return inputError(Out, "already holds a training run; continue it with --resume or "
                           "train into another directory");
  if (!HaveCheckpoint && Opts.Resume)
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
  } else {
    State.Parameters = Init->parameters();
    State.BestParameters = State.Parameters;
    State.Optimizer = Adam(Size, Opts.StepSize);
    llvm::sys::fs::remove(LogPath);
  }
  auto Eval = makeEvaluator(Opts, T);
  if (!Eval)
    return Eval.takeError();

  TrainResult Result;
  Result.InitialSpeedup = State.InitialSpeedup;
  for (uint64_t Step = State.NextStep; Step < Opts.Iterations; ++Step) {
    auto StepStart = std::chrono::steady_clock::now();
    uint64_t Announced = Step;
    std::vector<float> Sent = State.Parameters;
    if (auto Shared = T.shareStep(Announced, Sent); !Shared)
      return Shared.takeError();
    std::vector<std::vector<float>> Directions;
    auto Evaluated =
        evaluateStep(T, **Eval, *Init, Opts, Step, State.Parameters, Directions);
    if (!Evaluated)
      return Evaluated.takeError();
    std::vector<StepEvaluation> &Outcomes = *Evaluated;

    // Pairs count only whole: a failed evaluation drops its partner too.
    std::vector<uint32_t> Kept;
    std::vector<double> Rewards;
    unsigned Failures = 0;
    std::string FirstFailure;
    for (const StepEvaluation &O : Outcomes)
      if (!O.Result) {
        ++Failures;
        if (FirstFailure.empty())
          FirstFailure = O.Failure;
      }
    for (uint32_t D = 0; D < Opts.Perturbations; ++D)
      if (Outcomes[1 + 2 * D].Result && Outcomes[2 + 2 * D].Result) {
        Kept.push_back(D);
        Rewards.push_back(Outcomes[1 + 2 * D].Result->Speedup);
        Rewards.push_back(Outcomes[2 + 2 * D].Result->Speedup);
      }
    bool Skipped = Rewards.size() < MinSuccessShare * 2 * Opts.Perturbations;
    const std::optional<Evaluation> &Unperturbed = Outcomes[0].Result;

    Json Record = {{"step", Step}};
    Record["unperturbed_speedup"] = Unperturbed ? Json(Unperturbed->Speedup) : Json(nullptr);
    if (!Rewards.empty()) {
      Record["reward_mean"] =
          std::accumulate(Rewards.begin(), Rewards.end(), 0.0) / Rewards.size();
      Record["reward_min"] = *std::min_element(Rewards.begin(), Rewards.end());
      Record["reward_max"] = *std::max_element(Rewards.begin(), Rewards.end());
    }
    if (Unperturbed) {
      if (Step == 0)
        State.InitialSpeedup = Unperturbed->Speedup;
      if (Unperturbed->Speedup > State.BestSpeedup) {
        State.BestSpeedup = Unperturbed->Speedup;
        State.BestParameters = State.Parameters;
      }
      Result.FinalSpeedup = Unperturbed->Speedup;
    }
    if (!Skipped) {
      double Mean = std::accumulate(Rewards.begin(), Rewards.end(), 0.0) / Rewards.size();
      double Variance = 0;
      for (double R : Rewards)
        Variance += (R - Mean) * (R - Mean);
      double Deviation = std::sqrt(Variance / Rewards.size());
      std::vector<double> Gradient(Size, 0.0);
      // Identical rewards say nothing about the direction: no step.
      if (Deviation > 0)
        for (size_t K = 0; K < Kept.size(); ++K) {
          double Difference = (Rewards[2 * K] - Rewards[2 * K + 1]) / Deviation;
          double Scale = Difference / (2 * Kept.size() * Opts.Sigma);
          const std::vector<float> &Eps = Directions[Kept[K]];
          for (size_t J = 0; J < Size; ++J)
            Gradient[J] += Scale * Eps[J];
        }
      State.Optimizer.step(State.Parameters, Gradient);
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
    if (llvm::Error E = appendLine(LogPath, dumpJson(Record, -1)))
      return E;
    if (llvm::Error E = savePolicy(withParameters(*Init, State.Parameters, "trained"),
                                   Out + "/" + TrainPolicyFile))
      return E;
    if (llvm::Error E = savePolicy(withParameters(*Init, State.BestParameters, "best"),
                                   Out + "/" + TrainBestPolicyFile))
      return E;
    if (llvm::Error E = writeJsonFile(CheckpointPath, State.toJSON(Opts)))
      return E;
    if (Opts.OnStep)
      Opts.OnStep(Record);
  }
  T.release();
  Result.Steps = State.NextStep;
  Result.InitialSpeedup = State.InitialSpeedup;
  Result.BestSpeedup = State.BestSpeedup;
  Result.BestPolicy = Out + "/" + TrainBestPolicyFile;
  return Result;
}

} // namespace

llvm::Expected<TrainResult> runTrain(const TrainOptions &Given) {
  if (Given.Perturbations == 0)
    return inputError("--perturbations", "must be at least 1");
  TrainOptions Opts = Given;
  if (Opts.AutoShard && !Opts.Spans.samples()) {
    auto Profile = profileTrace(Opts.Trace);
    if (!Profile)
      return Profile.takeError();
    if (AutoShard::fits(Profile->ThreadEvents))
      AutoShard::sampleIn(Opts.Spans);
  }
  std::unique_ptr<Team> T;
  if (Opts.Mpi) {
    auto Joined = mpiTeam();
    if (!Joined)
      return Joined.takeError();
    T = std::move(*Joined);
  } else {
    T = localTeam();
  }
  auto Result = T->leader() ? lead(*T, Opts) : follow(*T, Opts);
  // The other ranks wait for this one: an error ends the whole job.
  if (!Result && T->size() > 1)
    T->abort(Opts.ReportError ? Opts.ReportError(Result.takeError()) : 1);
  if (Result)
    Result->Leader = T->leader();
  return Result;
}

} // namespace mlgo
