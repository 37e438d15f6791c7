/// \file
/// The leader's run, step by step: open the run directory, resume or start, each ES
/// step (evaluate, keep the best, move with Adam, log and checkpoint), and the end
/// (validation, native measurement).
#include "Ranks.h"
#include "Adam.h"
#include "Checkpoint.h"
#include "Gradient.h"
#include "RunDirectory.h"
#include "RunPolicies.h"
#include "StartPolicy.h"
#include "StepRecord.h"
#include "TeamStep.h"
#include "Train.h"
#include "Validation.h"
#include "support/Error.h"
#include "support/Stopwatch.h"

#include "llvm/Support/FileSystem.h"
#include <chrono>
#include <memory>

namespace mlgo {

namespace {

/// A step is skipped when fewer evaluations than this share succeed (reference ES).
constexpr double MinSuccessShare = 0.4;

class LeadingRun {
public:
  LeadingRun(Team &T, JobSet &Jobs, Policy Start)
      : T(T), Jobs(Jobs), Opts(Jobs.options()), Start(std::move(Start)),
        Out(Opts.Run.Output), CheckpointPath(Out + "/" + TrainCheckpointFile),
        LogPath(Out + "/" + TrainLogFile) {}

  /// Checks, creates and locks the run directory, and whether it holds a run to
  /// continue (as --resume says it must).
  llvm::Error open();
  /// The state to go on from: the checkpoint's, or the start policy's.
  llvm::Error restore();
  uint64_t nextStep() const { return State.NextStep; }
  /// One ES step: evaluates, keeps the best, moves, logs and checkpoints.
  llvm::Error step(uint64_t Step);
  /// Validates the best policy and, if asked, measures it natively.
  llvm::Error finish();
  TrainResult result() const;

private:
  /// Announces \p Step to the team and gathers its evaluations.
  llvm::Expected<std::vector<StepEvaluation>>
  evaluate(uint64_t Step, std::vector<std::vector<float>> &Directions);
  /// Notes the unperturbed policy's speedup: the run's first, and its last so far.
  void noteUnperturbed(uint64_t Step, const StepEvaluation &Unperturbed);
  /// Keeps the best policy of \p Outcomes and offers each to the shortlist; returns
  /// whether the shortlist changed.
  bool keepBest(uint64_t Step, const std::vector<StepEvaluation> &Outcomes,
                const std::vector<std::vector<float>> &Directions);
  /// Steps the parameters along the gradient of \p Pairs with Adam.
  llvm::Error update(uint64_t Step, const PairedRewards &Pairs,
                     const std::vector<std::vector<float>> &Directions);
  /// Logs \p Record, writes the step's policies, then the checkpoint.
  llvm::Error save(uint64_t Step, const Json &Record, bool ShortlistChanged);

  Team &T;
  JobSet &Jobs;
  const TrainOptions &Opts;
  Policy Start;
  std::string Out, CheckpointPath, LogPath;
  std::unique_ptr<RunLock> Lock; ///< held until the run ends
  bool HaveCheckpoint = false;
  Checkpoint State;
  TrainResult Result;
};

llvm::Error LeadingRun::open() {
  // Nothing is written into a directory that is not a run's.
  if (llvm::Error E = checkRunDirectory(Out, Opts.Run.Resume))
    return E;
  if (std::error_code EC = llvm::sys::fs::create_directories(Out))
    return inputError(Out, "cannot create: {}", EC.message());
  Lock = std::make_unique<RunLock>(Out);
  if (!Lock->held())
    return inputError(Out, "is in use by another training run");
  HaveCheckpoint = llvm::sys::fs::exists(CheckpointPath);
  if (HaveCheckpoint && !Opts.Run.Resume)
    return inputError(Out, "already holds a training run; continue it with --resume or "
                           "train into another directory");
  if (!HaveCheckpoint && Opts.Run.Resume)
    return inputError(CheckpointPath, "does not exist: nothing to resume");
  return llvm::Error::success();
}

llvm::Error LeadingRun::restore() {
  size_t Size = Start.parameters().size();
  if (!HaveCheckpoint) {
    State.Parameters = Start.parameters();
    State.BestParameters = State.Parameters;
    State.Optimizer = Adam(Size, Opts.Search.StepSize);
    State.Shortlisted = Shortlist(Opts.Search.ShortlistSize);
    llvm::sys::fs::remove(LogPath);
    return llvm::Error::success();
  }
  auto Read = readCheckpoint(CheckpointPath, Opts, Size);
  if (!Read)
    return Read.takeError();
  State = std::move(*Read);
  if (llvm::Error E = truncateLog(LogPath, State.NextStep))
    return E;
  // A run killed or out of disk after its checkpoint may have left these damaged;
  // the checkpoint holds them whole, so they are written again.
  return saveCheckpointedPolicies(Start, State, Out, Opts.Search.ShortlistSize);
}

llvm::Expected<std::vector<StepEvaluation>>
LeadingRun::evaluate(uint64_t Step, std::vector<std::vector<float>> &Directions) {
  uint64_t Announced = Step;
  std::vector<float> Sent = State.Parameters;
  if (auto Shared = T.shareStep(Announced, Sent); !Shared)
    return Shared.takeError();
  return evaluateStep(T, Jobs, Start, Step, State.Parameters, Directions);
}

void LeadingRun::noteUnperturbed(uint64_t Step, const StepEvaluation &Unperturbed) {
  if (!Unperturbed.Result)
    return;
  if (Step == 0)
    State.InitialSpeedup = Unperturbed.Result->Speedup;
  Result.FinalSpeedup = Unperturbed.Result->Speedup;
}

bool LeadingRun::keepBest(uint64_t Step, const std::vector<StepEvaluation> &Outcomes,
                          const std::vector<std::vector<float>> &Directions) {
  double Sigma = Opts.Search.Sigma;
  // The best policy is the best one evaluated, a perturbation too: each evaluation is
  // a whole policy whose predicted speedup is known, and on the rugged reward of
  // discrete decisions the best perturbations gain far more than the policy itself.
  if (std::optional<size_t> StepBest = bestEvaluation(Outcomes);
      StepBest && Outcomes[*StepBest].Result->Speedup > State.BestSpeedup) {
    State.BestSpeedup = Outcomes[*StepBest].Result->Speedup;
    State.BestParameters =
        evaluatedParameters(Outcomes[*StepBest], State.Parameters, Directions, Sigma);
  }
  bool ShortlistChanged = false;
  for (const StepEvaluation &O : Outcomes)
    if (O.Result)
      ShortlistChanged |= State.Shortlisted.offer(O.Result->Speedup, Step, [&] {
        return evaluatedParameters(O, State.Parameters, Directions, Sigma);
      });
  return ShortlistChanged;
}

llvm::Error LeadingRun::update(uint64_t Step, const PairedRewards &Pairs,
                               const std::vector<std::vector<float>> &Directions) {
  const SearchOptions &Search = Opts.Search;
  std::vector<double> Gradient =
      esGradient(Pairs, Directions, {Search.Sigma, Search.Shaping, Search.TopDirections},
                 State.Parameters.size());
  if (std::optional<size_t> Bad = State.Optimizer.step(State.Parameters, Gradient))
    return stageError("step {}: Adam's update would take parameter {} beyond the "
                      "finite floats (step size {}); stopped {}",
                      Step, *Bad, State.Optimizer.stepSize(),
                      Step ? fmt::format("with the checkpoint of step {}", Step - 1)
                           : std::string("before the first checkpoint"));
  return llvm::Error::success();
}

llvm::Error LeadingRun::save(uint64_t Step, const Json &Record, bool ShortlistChanged) {
  // Log, then policies, then the checkpoint: a run killed in between redoes the step.
  State.NextStep = Step + 1;
  if (llvm::Error E = appendRecord(LogPath, Record))
    return E;
  if (llvm::Error E = saveStepPolicies(Start, State, Out))
    return E;
  if (ShortlistChanged)
    if (llvm::Error E = saveShortlist(Start, State.Shortlisted, Out))
      return E;
  return writeJsonFile(CheckpointPath, State.toJSON(Opts));
}

llvm::Error LeadingRun::step(uint64_t Step) {
  auto Began = std::chrono::steady_clock::now();
  std::vector<std::vector<float>> Directions;
  auto Evaluated = evaluate(Step, Directions);
  if (!Evaluated)
    return Evaluated.takeError();
  const std::vector<StepEvaluation> &Outcomes = *Evaluated;
  unsigned Perturbations = Opts.Search.Perturbations;

  // Pairs count only whole: a failed evaluation drops its partner too.
  PairedRewards Pairs = pairRewards(Outcomes, Perturbations);
  bool Skipped = Pairs.Rewards.size() < MinSuccessShare * 2 * Perturbations;
  Json Record = stepRecord(Step, Outcomes[0], Pairs.Rewards);
  // With jobs, the unperturbed policy's speedup on each program (its mean above).
  if (Jobs.hasJobs()) {
    Result.FinalJobSpeedups = unperturbedJobSpeedups(Jobs, Outcomes[0]);
    Record["jobs"] = jobsRecord(Result.FinalJobSpeedups);
  }
  noteUnperturbed(Step, Outcomes[0]);
  bool ShortlistChanged = keepBest(Step, Outcomes, Directions);
  if (!Skipped)
    if (llvm::Error E = update(Step, Pairs, Directions))
      return E;
  addFailures(Record, Outcomes);
  Record["skipped"] = Skipped;
  Record["best_speedup"] = State.BestSpeedup;
  addWork(Record, Outcomes);
  Record["seconds"] = secondsSince(Began);

  if (llvm::Error E = save(Step, Record, ShortlistChanged))
    return E;
  if (Opts.Run.OnStep)
    Opts.Run.OnStep(Record);
  return llvm::Error::success();
}

llvm::Error LeadingRun::finish() {
  // Every run that has a best policy ends validated, a resumed one too.
  if (!State.NextStep)
    return llvm::Error::success();
  auto Validated = validateJobs(Jobs, Start, State.NextStep);
  if (!Validated)
    return Validated.takeError();
  if (llvm::Error E = appendRecord(LogPath, *Validated))
    return E;
  Result.Validation = std::move(*Validated);
  if (!Opts.Native.enabled())
    return llvm::Error::success();
  auto Measured = measureBestNatively(Opts);
  if (!Measured)
    return Measured.takeError();
  Result.Native = std::move(*Measured);
  return llvm::Error::success();
}

TrainResult LeadingRun::result() const {
  TrainResult Done = Result;
  Done.Steps = State.NextStep;
  Done.InitialSpeedup = State.InitialSpeedup;
  Done.BestSpeedup = State.BestSpeedup;
  Done.BestPolicy = Out + "/" + TrainBestPolicyFile;
  if (Opts.Search.ShortlistSize) {
    Done.Shortlist = Out + "/" + TrainShortlistFile;
    for (const ShortlistEntry &E : State.Shortlisted.entries())
      Done.ShortlistSpeedups.push_back(E.Speedup);
  }
  return Done;
}

} // namespace

llvm::Expected<TrainResult> lead(Team &T, JobSet &Jobs) {
  auto Start = loadStartPolicy(Jobs.options().Search.Init);
  if (!Start)
    return Start.takeError();
  LeadingRun Run(T, Jobs, std::move(*Start));
  if (llvm::Error E = Run.open())
    return E;
  if (llvm::Error E = Run.restore())
    return E;
  if (llvm::Error E = Jobs.makeEvaluators(variantPrefix(T)))
    return E;
  const SearchOptions &Search = Jobs.options().Search;
  bool BudgetSpent = false;
  uint64_t First = Run.nextStep();
  for (uint64_t Step = First; Step < Search.Iterations; ++Step) {
    // The budget is checked between steps, after at least one of this invocation.
    if (Search.TimeBudgetSeconds > 0 && Step > First &&
        secondsSince(Jobs.options().Run.Started) >= Search.TimeBudgetSeconds) {
      BudgetSpent = true;
      break;
    }
    if (llvm::Error E = Run.step(Step))
      return E;
  }
  T.release();
  if (llvm::Error E = Run.finish())
    return E;
  TrainResult Result = Run.result();
  Result.BudgetSpent = BudgetSpent;
  return Result;
}

} // namespace mlgo
