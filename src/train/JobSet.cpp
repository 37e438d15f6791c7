/// \file
/// Evaluating a policy on every program of a run.
#include "JobSet.h"
#include "Validation.h"
#include "support/Error.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

namespace mlgo {

TrainProgram namedProgram(std::string Name, std::string Corpus, std::string Trace,
                          std::string Baseline) {
  TrainProgram P;
  P.Name = Name.empty() ? llvm::sys::path::stem(Trace).str() : std::move(Name);
  P.Corpus = std::move(Corpus);
  P.Trace = std::move(Trace);
  P.Baseline = std::move(Baseline);
  return P;
}

std::vector<TrainProgram> trainPrograms(const TrainOptions &Opts) {
  if (!Opts.Programs.empty())
    return Opts.Programs;
  return {namedProgram("", Opts.Corpus, Opts.Trace, Opts.Baseline)};
}

llvm::Expected<std::vector<TrainProgram>> readJobFile(llvm::StringRef Path) {
  auto Value = readJsonFile(Path);
  if (!Value)
    return Value.takeError();
  if (!Value->is_array() || Value->empty())
    return inputError(Path, "is not a non-empty JSON list of jobs "
                            "({{\"name\", \"corpus\", \"trace\", \"baseline\"}})");
  llvm::StringRef Directory = llvm::sys::path::parent_path(Path);
  // Paths in the file are the file's: a job file moves with its programs.
  auto Resolve = [&](const std::string &Given) {
    if (llvm::sys::path::is_absolute(Given) || Directory.empty())
      return Given;
    llvm::SmallString<256> Joined(Directory);
    llvm::sys::path::append(Joined, Given);
    return std::string(Joined);
  };
  std::vector<TrainProgram> Programs;
  for (const Json &Job : *Value) {
    auto Name = getOptionalJsonField<std::string>(Job, "name", Path);
    if (!Name)
      return Name.takeError();
    std::string Fields[3];
    const char *Keys[3] = {"corpus", "trace", "baseline"};
    for (int K = 0; K < 3; ++K) {
      auto Field = getJsonField<std::string>(Job, Keys[K], Path);
      if (!Field)
        return Field.takeError();
      if (Field->empty())
        return inputError(Path, "a job's '{}' is empty", Keys[K]);
      Fields[K] = Resolve(*Field);
    }
    Programs.push_back(
        namedProgram(Name->value_or(""), Fields[0], Fields[1], Fields[2]));
  }
  return Programs;
}

TrainOptions programOptions(const TrainOptions &Opts, const TrainProgram &P) {
  TrainOptions One = Opts;
  One.Corpus = P.Corpus;
  One.Trace = P.Trace;
  One.Baseline = P.Baseline;
  if (P.Spans)
    One.Spans = *P.Spans;
  if (!Opts.Programs.empty())
    One.Programs.clear();
  return One;
}

llvm::Error checkProgramNames(const std::vector<TrainProgram> &Programs) {
  llvm::StringSet<> Seen;
  for (const TrainProgram &P : Programs) {
    // A name is a directory of the run's work directory and a word of the report.
    bool Plain = !P.Name.empty() && P.Name != "." && P.Name != "..";
    for (char C : P.Name)
      Plain &= llvm::isAlnum(C) || C == '-' || C == '_' || C == '.';
    if (!Plain)
      return inputError("--job", "job name '{}' is not a word of letters, digits, '-', "
                                 "'_' and '.' (name it with NAME=)",
                        P.Name);
    if (!Seen.insert(P.Name).second)
      return inputError("--job", "two jobs are named '{}'; name each (NAME= in --job, \"name\" in "
                                 "a job file)",
                        P.Name);
  }
  return llvm::Error::success();
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
  if (Set->Programs.size() > 1 && !Given.HeldOut.empty())
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
    Set->Opts.Programs = Set->Programs;
  else if (Replaying)
    Set->Opts.Spans = *Set->Programs[0].Spans;
  return Set;
}

llvm::Error JobSet::makeEvaluators(const std::string &NamePrefix) {
  for (size_t I = 0; I < Programs.size(); ++I) {
    EvaluatorOptions Evaluating;
    Evaluating.Corpus = Programs[I].Corpus;
    Evaluating.Replay = Contexts[I].get();
    Evaluating.ReplayDefault = Contexts[I] != nullptr;
    // Each program's variants apart: evaluations name them alike on every program.
    Evaluating.WorkDir = Opts.Output + "/work";
    if (hasJobs())
      Evaluating.WorkDir += "/" + Programs[I].Name;
    Evaluating.NamePrefix = NamePrefix;
    Evaluating.Compiling.CacheDir = Opts.CacheDir;
    Evaluating.Compiling.Clang = Opts.Clang;
    Evaluating.Compiling.PlanJobs = Opts.Jobs;
    Evaluating.Compiling.TimeoutSeconds = Opts.CompileTimeoutSeconds;
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
