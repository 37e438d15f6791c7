/// \file
/// The programs a run's policies are evaluated on: one (the classic run of --corpus,
/// --trace and --baseline) or several jobs (--job, --job-file). Per program its replay
/// context (the trace, read once a run) and its evaluator (compile memo, the `default`
/// variant's cycles). A policy's evaluation compiles and replays it on every program in
/// turn; its speedup is the mean of the programs' predicted speedups over their own
/// `default`, and it fails as a whole if it fails on one program (the ES step then drops
/// its antithetic pair, as any failed evaluation's).
#pragma once

#include "Evaluator.h"
#include "TrainOptions.h"
#include "replay/ReplayContext.h"

#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <vector>

namespace mlgo {

/// The programs of \p Opts: its Programs, or the classic run's one program, named
/// after its trace.
std::vector<TrainProgram> trainPrograms(const TrainOptions &Opts);

/// \p Opts for program \p P alone: its corpus, trace and binary.
TrainOptions programOptions(const TrainOptions &Opts, const TrainProgram &P);

/// \p E as failed in job \p Name: a stage failure prefixed with "job NAME: ".
llvm::Error inJob(llvm::StringRef Name, llvm::Error E);

class JobSet {
public:
  /// Checks each program's trace against its binary and, with \p Replaying, reads it
  /// (the rewards' replay context); without, evaluators only compile (validation).
  static llvm::Expected<std::unique_ptr<JobSet>> create(const TrainOptions &Opts,
                                                        bool Replaying);

  /// The options with the contexts' shard decisions (EvaluationOptions::Spans; with
  /// jobs, each program's Spans).
  const TrainOptions &options() const { return Opts; }
  bool hasJobs() const { return !Opts.Inputs.Programs.empty(); }
  size_t size() const { return Programs.size(); }
  const TrainProgram &program(size_t I) const { return Programs[I]; }
  /// options() for program \p I alone.
  TrainOptions optionsOf(size_t I) const { return programOptions(Opts, Programs[I]); }
  ReplayContext *context(size_t I) { return Contexts[I].get(); }
  Evaluator &evaluator(size_t I) { return *Evaluators[I]; }

  /// Creates the evaluators (replaying `default` on each program), naming variants with
  /// \p NamePrefix; once the output directory is the run's.
  llvm::Error makeEvaluators(const std::string &NamePrefix);
  bool haveEvaluators() const { return !Evaluators.empty(); }

  /// Compiles and replays \p P on every program. With jobs, the result's JobSpeedups
  /// hold each program's speedup, its Speedup their mean. Thread-safe.
  llvm::Expected<Evaluation> evaluate(const Policy &P, llvm::StringRef Name);

private:
  JobSet() = default;

  TrainOptions Opts;
  std::vector<TrainProgram> Programs;
  std::vector<std::unique_ptr<ReplayContext>> Contexts; ///< null entries without replay
  std::vector<std::unique_ptr<Evaluator>> Evaluators;
};

} // namespace mlgo
