/// \file
/// A step's record in the run's log (log.jsonl): the unperturbed policy's predicted
/// speedup, the rewards' range, with jobs each program's speedup, the failures, the best
/// speedup so far and where the step's time went. The log keeps its keys in the order
/// they are added, so a record is built in the order of these parts.
#pragma once

#include "JobSet.h"
#include "StepEvaluations.h"
#include "TrainResult.h"
#include "support/Json.h"

#include <cstdint>
#include <vector>

namespace mlgo {

/// The record's first keys: "step", "unperturbed_speedup" (of \p Unperturbed, null if
/// it failed) and the mean, lowest and highest of \p Rewards (none without rewards).
Json stepRecord(uint64_t Step, const StepEvaluation &Unperturbed,
                const std::vector<double> &Rewards);

/// Per program of \p Jobs, the speedup \p Unperturbed predicts on it.
JobSpeedups unperturbedJobSpeedups(const JobSet &Jobs, const StepEvaluation &Unperturbed);

/// The record's "jobs": [{"name", "unperturbed_speedup"}], in the run's order.
Json jobsRecord(const JobSpeedups &Speedups);

/// Adds "evaluations", "failures" and the first failure's message (if any failed).
void addFailures(Json &Record, const std::vector<StepEvaluation> &Outcomes);

/// Adds the evaluations' work: the compiles and replays reused, and their seconds.
void addWork(Json &Record, const std::vector<StepEvaluation> &Outcomes);

} // namespace mlgo
