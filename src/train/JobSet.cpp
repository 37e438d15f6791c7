/// \file
/// Evaluating a policy on every program of a run.
#include "JobSet.h"
#include "RewardReplay.h"
#include "Validation.h"
#include "support/Error.h"

namespace mlgo {

std::vector<TrainProgram> trainPrograms(const TrainOptions &Opts) {
  const TrainInputs &In = Opts.Inputs;
  if (!In.Programs.empty())
    return In.Programs;
  TrainProgram One = namedProgram("", In.Corpus, In.Trace, In.Baseline);
  One.NativeCycles = In.NativeCycles;
  return {One};
}

TrainOptions programOptions(const TrainOptions &Opts, const TrainProgram &P) {
  TrainOptions One = Opts;
  One.Inputs.Corpus = P.Corpus;
  One.Inputs.Trace = P.Trace;
  One.Inputs.Baseline = P.Baseline;
  One.Inputs.NativeCycles = P.NativeCycles;
  if (P.Spans)
    One.Evaluation.Spans = *P.Spans;
  if (!Opts.Inputs.Programs.empty())
    One.Inputs.Programs.clear();
  return One;
}

llvm::Error inJob(llvm::StringRef Name, llvm::Error E) {
  return llvm::handleErrors(
      std::move(E), [&](std::unique_ptr<llvm::ErrorInfoBase> Info) -> llvm::Error {
        // Bad input names its file already, and keeps its exit code (2).
        if (Info->isA<InputError>())
          return llvm::Error(std::move(Info));
        return stageError("job {}: {}", Name, Info->message());
      });
}

llvm::Expected<std::unique_ptr<JobSet>> JobSet::create(const TrainOptions &Given,
                                                       bool Replaying) {
  std::unique_ptr<JobSet> Set(new JobSet());
  Set->Opts = Given;
  Set->Programs = trainPrograms(Given);
  // A classic run's name (its trace's stem) is only a label: any file name will do.
  if (Set->hasJobs())
    if (llvm::Error E = checkProgramNames(Set->Programs))
      return E;
  // As replay does: each trace's binary is the reference of its fast replays. Every
  // program is checked before any trace is read.
  for (const TrainProgram &P : Set->Programs)
    if (llvm::Error E = checkRecordedBinary(P.Trace, P.Baseline))
      return E;
  // Held-out traces are other inputs of one program.
  if (Set->Programs.size() > 1 && !Given.Validation.HeldOut.empty())
    return inputError("--validate-trace", "holds traces of one program; with several jobs, "
                                          "each job's whole trace is validated");
  if (llvm::Error E = checkHeldOutTraces(programOptions(Given, Set->Programs[0])))
    return E;
  for (TrainProgram &P : Set->Programs) {
    if (!Replaying) {
      Set->Contexts.push_back(nullptr);
      continue;
    }
    auto Context = ReplayContext::create(trainReplayOptions(programOptions(Given, P)));
    if (!Context)
      return Context.takeError();
    // The automatic shard is the context's decision; the checkpoint records it.
    P.Spans = (*Context)->options().Spans;
    Set->Contexts.push_back(std::move(*Context));
  }
  if (Set->hasJobs())
    Set->Opts.Inputs.Programs = Set->Programs;
  else if (Replaying)
    Set->Opts.Evaluation.Spans = *Set->Programs[0].Spans;
  return Set;
}

llvm::Error JobSet::makeEvaluators(const std::string &NamePrefix) {
  for (size_t I = 0; I < Programs.size(); ++I) {
    EvaluatorOptions Evaluating;
    Evaluating.Corpus = Programs[I].Corpus;
    Evaluating.Replay = Contexts[I].get();
    Evaluating.ReplayDefault = Contexts[I] != nullptr;
    if (Programs[I].NativeCycles)
      Evaluating.Run = WholeRun{*Programs[I].NativeCycles};
    // Each program's variants apart: evaluations name them alike on every program.
    Evaluating.WorkDir = Opts.Run.Output + "/work";
    if (hasJobs())
      Evaluating.WorkDir += "/" + Programs[I].Name;
    Evaluating.NamePrefix = NamePrefix;
    const EvaluationOptions &Settings = Opts.Evaluation;
    Evaluating.Compiling.CacheDir = Settings.CacheDir;
    Evaluating.Compiling.Clang = Settings.Clang;
    Evaluating.Compiling.PlanJobs = Settings.Jobs;
    Evaluating.Compiling.TimeoutSeconds = Settings.CompileTimeoutSeconds;
    auto Made = Evaluator::create(Evaluating);
    if (!Made)
      return hasJobs() ? inJob(Programs[I].Name, Made.takeError()) : Made.takeError();
    Evaluators.push_back(std::move(*Made));
  }
  return llvm::Error::success();
}

llvm::Expected<Evaluation> JobSet::evaluate(const Policy &P, llvm::StringRef Name) {
  if (!hasJobs())
    return Evaluators[0]->evaluate(P, Name);
  // The jobs in order, the first failure ending the evaluation: a mean over the jobs
  // that succeeded would reward a policy for breaking the others.
  Evaluation Sum;
  Sum.CompileReused = Sum.ReplayReused = true;
  double Total = 0;
  for (size_t I = 0; I < Programs.size(); ++I) {
    auto R = Evaluators[I]->evaluate(P, Name);
    if (!R)
      return stageError("job {}: {}", Programs[I].Name, llvm::toString(R.takeError()));
    Sum.Cycles += R->Cycles;
    Sum.Decisions += R->Decisions;
    Sum.CompileSeconds += R->CompileSeconds;
    Sum.ReplaySeconds += R->ReplaySeconds;
    Sum.CompileReused &= R->CompileReused;
    Sum.ReplayReused &= R->ReplayReused;
    Sum.JobSpeedups.push_back(R->Speedup);
    Total += R->Speedup;
  }
  Sum.Speedup = Total / Programs.size();
  return Sum;
}

} // namespace mlgo
