/// \file
/// What a training run is given, grouped by concern: the programs it trains on, the
/// search, how each policy is evaluated, the run itself (its directory, its processes),
/// validation and native measurement. The CLI fills them from train's options.
#pragma once

#include "Fitness.h"
#include "NativeMeasure.h"
#include "TrainProgram.h"
#include "replay/engine/CoreProfile.h"
#include "replay/engine/EngineKind.h"
#include "replay/fast/SpanSettings.h"
#include "support/Json.h"

#include "llvm/Support/Error.h"
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace mlgo {

/// What the policies are trained on: one program, or several (jobs).
struct TrainInputs {
  /// The program of a classic run (train --corpus --trace --baseline); unused with
  /// Programs.
  std::string Corpus, Trace, Baseline;
  /// The classic run's native cycles (TrainProgram::NativeCycles); unused with Programs.
  std::optional<double> NativeCycles;
  /// The programs of a run with jobs: a policy's reward is the mean of its predicted
  /// speedups over each program's `default`; an evaluation that fails on one program
  /// fails as a whole. Empty: the classic run of Corpus, Trace and Baseline, whose log
  /// and checkpoint hold no job.
  std::vector<TrainProgram> Programs;
};

/// The Evolution Strategies search: where it starts, how long it runs, how it steps.
struct SearchOptions {
  std::string Init = "initial"; ///< the start policy: a built-in name or a file
  /// Iterations when only a time budget bounds the run.
  static constexpr unsigned NoIterationLimit = std::numeric_limits<unsigned>::max();
  unsigned Iterations = 10;
  /// Wall seconds after which no step starts: the one under way finishes, then the run
  /// ends as after its last iteration. Counted from RunOptions::Started (a resumed
  /// run's budget starts anew); 0: none.
  double TimeBudgetSeconds = 0;
  unsigned Perturbations = 4; ///< directions per step, each evaluated at +σ and -σ
  double Sigma = 0.05;
  double StepSize = 0.005;
  /// How a step's rewards weigh its directions (Gradient.h).
  Fitness Shaping = Fitness::ZScore;
  /// Only the pairs with the highest max(r+, r-) count; 0 (or Perturbations): all.
  unsigned TopDirections = 0;
  /// Keep the best distinct policies evaluated, up to this many (Shortlist.h); 0: none.
  unsigned ShortlistSize = 0;
  uint64_t Seed = 1;
};

/// How each policy is evaluated: compiled by Clang, replayed on a model of CPU.
struct EvaluationOptions {
  std::string CPU = "skylake";
  /// The replay engine; the flow engine replays whole traces unless Spans samples.
  EngineKind Engine = EngineKind::Flow;
  /// Replay with the traces' load dependences (ReplayOptions::LoadDependences).
  bool LoadDependences = false;
  /// What the core does beyond its scheduling model (ReplayOptions::Core).
  CoreProfile Core;
  /// Fast replay's spans; sampling there makes each evaluation replay a trace shard.
  SpanSettings Spans;
  /// Without a shard in Spans: on a long trace (AutoShard::fits), every evaluation
  /// replays AutoShard's shard, kept whatever its error (perturbations of initial err
  /// at most 0.017 points on it, docs/fast-replay.md), else the whole trace.
  bool AutoShard = true;
  std::string Clang = "clang-22";
  /// The middle ends and the traced binary's exact replay, kept for the next run on
  /// the same corpus and trace (as replay's --cache-dir); empty: not kept.
  std::string CacheDir;
  double CompileTimeoutSeconds = 600;
  unsigned Jobs = 2; ///< evaluations at once
};

/// The run itself: its directory, whether it continues there, the processes it runs
/// on, and what it tells its caller.
struct RunOptions {
  std::string Output;
  bool Resume = false;
  /// When this invocation began: SearchOptions::TimeBudgetSeconds counts from here.
  std::chrono::steady_clock::time_point Started = std::chrono::steady_clock::now();
  /// Train on the ranks of an MPI job (mpirun); rank 0 leads.
  bool Mpi = false;
  /// Prints an error and returns the exit code, before an MPI job is aborted.
  std::function<int(llvm::Error)> ReportError;
  /// Called after every step with its log record.
  std::function<void(const Json &)> OnStep;
};

/// A held-out trace (train --validate-trace): the program run on another input.
struct HeldOutTrace {
  std::string Trace;
  std::string Binary; ///< the binary it was recorded on; empty: TrainInputs::Baseline
};

/// What the best policy is validated on at the end of the run, beside the whole
/// training trace.
struct ValidationOptions {
  std::vector<HeldOutTrace> HeldOut;
};

struct TrainOptions {
  TrainInputs Inputs;
  SearchOptions Search;
  EvaluationOptions Evaluation;
  RunOptions Run;
  ValidationOptions Validation;
  /// Measured natively at the end of the run (and by train --validate): the best policy
  /// and the start policy against `default` (NativeMeasure.h); off unless Run is set.
  NativeMeasureOptions Native;
};

} // namespace mlgo
