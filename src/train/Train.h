/// \file
/// The train stage: Evolution Strategies over a policy's parameters, rewarded by the
/// predicted speedup over the `default` variant (Evaluator.h). Antithetic Gaussian
/// directions derived from the seed (Directions.h), shaped rewards (Fitness.h), Adam.
/// Every step appends to a JSON-lines log and rewrites a checkpoint atomically, so a run
/// that is killed resumes where its last step ended and yields the same rewards. A run
/// ends by validating its best policy on the whole trace and held-out traces
/// (Validation.h). With several programs (jobs, JobSet.h), a policy's reward is the mean
/// of its predicted speedups over each program's `default`.
///
/// The run directory (train -o DIR) holds log.jsonl, checkpoint.json, policy.json (the
/// search's current policy) and best.json; with --shortlist K, shortlist.json (its
/// index, best first) and shortlist/1.json (best.json's policy) to shortlist/K.json;
/// with a shortlist and --measure-run, chosen.json (the policy measured fastest, faster
/// than `default` above noise; absent when none was). Its reports are
/// report/TrainReports.h's.
#pragma once

#include "TrainOptions.h"
#include "TrainResult.h"
#include "support/Json.h"

#include "llvm/Support/Error.h"

namespace mlgo {

/// Trains, or continues a run with Opts.Run.Resume.
llvm::Expected<TrainResult> runTrain(const TrainOptions &Opts);

/// Validates the best policy of the run in Opts.Run.Output (train --validate) without
/// training: replays it exactly on the whole trace and on the held-out traces, against
/// `default` and the start policy, and appends the record to the run's log. Opts must
/// name the run's corpus and trace (or its jobs, each then validated), start policy,
/// CPU and engine. Returns the record.
llvm::Expected<Json> runValidation(const TrainOptions &Opts);

/// Whether Opts.Native can measure this run (before training: at once).
llvm::Error checkNativeMeasurement(const TrainOptions &Opts);

/// Builds the best policy of the run in Opts.Run.Output and its start policy, measures
/// them natively against `default` (Opts.Native) in DIR/native, and appends the record
/// to the log; returns it.
llvm::Expected<Json> measureBestNatively(const TrainOptions &Opts);

} // namespace mlgo
