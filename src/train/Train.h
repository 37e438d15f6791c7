/// \file
/// The train stage: Evolution Strategies over a policy's parameters, rewarded by the
/// predicted speedup over the `default` variant (Evaluator.h). Antithetic Gaussian
/// directions derived from the seed (Directions.h), shaped rewards (Fitness.h), Adam.
/// Every step appends to a JSON-lines log and rewrites a checkpoint atomically, so a run
/// that is killed resumes where its last step ended and yields the same rewards. A run
/// ends by validating its best policy on the whole trace and held-out traces
/// (Validation.h). With several programs (jobs, JobSet.h), a policy's reward is the mean
/// of its predicted speedups over each program's `default`.
#pragma once

#include "Fitness.h"
#include "NativeMeasure.h"
#include "replay/EngineKind.h"
#include "replay/SpanSettings.h"
#include "support/Json.h"

#include "llvm/Support/Error.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mlgo {

inline constexpr const char *TrainLogFile = "log.jsonl";
inline constexpr const char *TrainCheckpointFile = "checkpoint.json";
inline constexpr const char *TrainPolicyFile = "policy.json";
inline constexpr const char *TrainBestPolicyFile = "best.json";
/// With --shortlist: the shortlist's index ([{"policy", "speedup", "step"}], best
/// first) and its policies, shortlist/1.json (best.json's policy) to shortlist/K.json.
inline constexpr const char *TrainShortlistFile = "shortlist.json";
/// With a shortlist and --measure-run: the policy measured fastest, faster than
/// `default` above noise (absent when none was).
inline constexpr const char *TrainChosenPolicyFile = "chosen.json";
inline constexpr const char *TrainShortlistDirectory = "shortlist";

/// A held-out trace (train --validate-trace): the program run on another input.
struct HeldOutTrace {
  std::string Trace;
  std::string Binary; ///< the binary it was recorded on; empty: TrainOptions::Baseline
};

/// One program of a run with several (train --job, --job-file): its subset corpus, its
/// trace and the binary the trace was recorded on.
struct TrainProgram {
  std::string Name; ///< unique in the run; shown in the log, the summary and the report
  std::string Corpus, Trace, Baseline;
  /// The shard its rewards replay: set by the run from the trace (as TrainOptions::Spans
  /// in a classic run); none: TrainOptions::Spans.
  std::optional<SpanSettings> Spans;
};

struct TrainOptions {
  /// The program of a classic run (train --corpus --trace --baseline); unused with
  /// Programs.
  std::string Corpus, Trace, Baseline;
  std::string Output;
  /// The programs of a run with jobs: a policy's reward is the mean of its predicted
  /// speedups over each program's `default`; an evaluation that fails on one program
  /// fails as a whole. Empty: the classic run of Corpus, Trace and Baseline, whose log
  /// and checkpoint hold no job.
  std::vector<TrainProgram> Programs;
  unsigned Iterations = 10;
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
  unsigned Jobs = 2;
  std::string Init = "initial";
  std::string CPU = "skylake";
  /// The replay engine; the flow engine replays whole traces unless Spans samples.
  EngineKind Engine = EngineKind::Flow;
  /// Replay with the traces' load dependences (ReplayOptions::LoadDependences).
  bool LoadDependences = false;
  /// Fast replay's spans; sampling there makes each evaluation replay a trace shard.
  SpanSettings Spans;
  /// Without a shard in Spans: on a long trace (AutoShard::fits), every evaluation
  /// replays AutoShard's shard, kept whatever its error (perturbations of initial err
  /// at most 0.017 points on it, docs/fast-replay-status.md), else the whole trace.
  bool AutoShard = true;
  std::string Clang = "clang-22";
  /// The middle ends and the traced binary's exact replay, kept for the next run on
  /// the same corpus and trace (as replay's --cache-dir); empty: not kept.
  std::string CacheDir;
  double CompileTimeoutSeconds = 600;
  bool Resume = false;
  /// Replayed with the best policy at the end of the run (validation), beside the whole
  /// training trace.
  std::vector<HeldOutTrace> HeldOut;
  /// Measured natively at the end of the run (and by train --validate): the best policy
  /// and the start policy against `default` (NativeMeasure.h); off unless Run is set.
  NativeMeasureOptions Native;
  /// Train on the ranks of an MPI job (mpirun); rank 0 leads.
  bool Mpi = false;
  /// Prints an error and returns the exit code, before an MPI job is aborted.
  std::function<int(llvm::Error)> ReportError;
  /// Called after every step with its log record.
  std::function<void(const Json &)> OnStep;
};

struct TrainResult {
  unsigned Steps = 0;         ///< steps in the output (resumed ones included)
  double InitialSpeedup = 0;  ///< the unperturbed policy's, at step 0
  double FinalSpeedup = 0;    ///< at the last step
  double BestSpeedup = 0;     ///< of every policy evaluated, perturbations included
  /// With jobs (TrainOptions::Programs): per program, its name and the unperturbed
  /// policy's predicted speedup at the last step (null if that evaluation failed).
  std::vector<std::pair<std::string, std::optional<double>>> FinalJobSpeedups;
  std::string BestPolicy;     ///< its file
  /// With --shortlist: its index file and its policies' predicted speedups, best first.
  std::string Shortlist;
  std::vector<double> ShortlistSpeedups;
  bool Leader = true;         ///< false on the other ranks of an MPI job
  /// The log's validation record of the best policy (Validation.h); null if the run
  /// has no step.
  Json Validation;
  /// The log's native measurement record ({"native": ...}); null without one.
  Json Native;
};

/// Whether the programs' names are unique and usable as directory names.
llvm::Error checkProgramNames(const std::vector<TrainProgram> &Programs);

/// Reads a job file (train --job-file): a JSON list of {"name" (optional: the trace's
/// stem), "corpus", "trace", "baseline"}, relative paths from the file's directory.
llvm::Expected<std::vector<TrainProgram>> readJobFile(llvm::StringRef Path);

/// A program named after its trace's file name without extension (NAME= unless given).
TrainProgram namedProgram(std::string Name, std::string Corpus, std::string Trace,
                          std::string Baseline);

/// Trains, or continues a run with Opts.Resume.
llvm::Expected<TrainResult> runTrain(const TrainOptions &Opts);

/// Validates the best policy of the run in Opts.Output (train --validate) without
/// training: replays it exactly on the whole trace and on Opts.HeldOut, against
/// `default` and the start policy, and appends the record to the run's log. Opts must
/// name the run's corpus and trace (or its jobs, each then validated), start policy,
/// CPU and engine. Returns the record.
llvm::Expected<Json> runValidation(const TrainOptions &Opts);

/// Writes <Directory>/reward.svg from its log: the unperturbed policy's predicted speedup
/// per step, the perturbations' spread and the validation points; with a validation
/// record also <Directory>/report.md (the validation and the functions the best policy
/// changes most). Returns the files written.
llvm::Expected<std::vector<std::string>> writeTrainReport(llvm::StringRef Directory);

/// Whether Opts.Native can measure this run (before training: at once).
llvm::Error checkNativeMeasurement(const TrainOptions &Opts);

/// Builds the best policy of the run in Opts.Output and its start policy, measures them
/// natively against `default` (Opts.Native) in Opts.Output/native, and appends the
/// record to the log; returns it.
llvm::Expected<Json> measureBestNatively(const TrainOptions &Opts);

} // namespace mlgo
