/// \file
/// Validation of a run's best policy: rewards come from the training trace, often a
/// shard of it, and from one input of the program; the best policy is therefore
/// replayed exactly on the whole trace and on held-out traces (the program run on
/// other inputs, recorded on the same binary), against `default` and against the start
/// policy, so that overfitting to the shard or to the input shows. The outcome is one
/// log record, {"validation": {...}}, that the summary and the report read.
#pragma once

#include "Evaluator.h"
#include "TrainOptions.h"
#include "replay/Replay.h"
#include "support/Json.h"

#include "llvm/Support/Error.h"

namespace mlgo {

/// The functions of the whole trace a validation record lists: the largest changes.
inline constexpr size_t ValidationFunctions = 20;

/// Checks that every held-out trace was recorded on its binary: before training, so
/// that a bad --validate-trace fails at once.
llvm::Error checkHeldOutTraces(const TrainOptions &Opts);

/// Validates the policy at DIR/best.json, trained for \p Steps steps from \p Start,
/// with \p Eval's compiles. \p Training is the rewards' replay context, reused for the
/// whole trace if it replays it exactly; may be null. Returns the log record.
llvm::Expected<Json> validateBest(Evaluator &Eval, const Policy &Start,
                                  const TrainOptions &Opts, ReplayContext *Training,
                                  uint64_t Steps);

class JobSet;

/// Validates the best policy on every program of \p Jobs (validateBest), its evaluators
/// made. With jobs, one record whose traces name their job ("job"), program by program.
llvm::Expected<Json> validateJobs(JobSet &Jobs, const Policy &Start, uint64_t Steps);

} // namespace mlgo
