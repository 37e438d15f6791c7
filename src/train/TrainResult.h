/// \file
/// What a training run ends with: its steps, the predicted speedups of its start, last
/// and best policies, the shortlist, and the validation and native measurement records.
#pragma once

#include "support/Json.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlgo {

/// Per program of a run with jobs, its name and a policy's predicted speedup on it
/// (none if its evaluation failed).
using JobSpeedups = std::vector<std::pair<std::string, std::optional<double>>>;

struct TrainResult {
  unsigned Steps = 0;         ///< steps in the output (resumed ones included)
  /// Whether SearchOptions::TimeBudgetSeconds ended the run before its iterations.
  bool BudgetSpent = false;
  double InitialSpeedup = 0;  ///< the unperturbed policy's, at step 0
  double FinalSpeedup = 0;    ///< at the last step
  double BestSpeedup = 0;     ///< of every policy evaluated, perturbations included
  /// With jobs (TrainInputs::Programs): per program, its name and the unperturbed
  /// policy's predicted speedup at the last step.
  JobSpeedups FinalJobSpeedups;
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

} // namespace mlgo
