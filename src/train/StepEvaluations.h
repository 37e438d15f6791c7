/// \file
/// The evaluations of one ES step and how they are shared out: index 0 is the
/// unperturbed policy, 1 + 2d and 2 + 2d are θ + σε_d and θ − σε_d. A process evaluates
/// the indexes of its share (all of them, or every size-th one on an MPI rank), and the
/// results travel as JSON between ranks.
#pragma once

#include "JobSet.h"
#include "policy/Policy.h"
#include "support/Json.h"

#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace mlgo {

struct StepEvaluation {
  int Direction = -1; ///< -1: the unperturbed policy
  int Sign = 0;       ///< +1 or -1 along the direction
  std::optional<Evaluation> Result;
  std::string Failure; ///< why there is no result
  bool Done = false;   ///< evaluated by some process (result or failure)

  Json toJSON() const;
  static llvm::Expected<StepEvaluation> fromJSON(const Json &Value);
};

/// The evaluations of a step with \p Perturbations directions, none done yet.
std::vector<StepEvaluation> layoutStep(unsigned Perturbations);

struct StepShare {
  uint64_t Step = 0;
  unsigned Offset = 0, Stride = 1; ///< evaluate the indexes I with I % Stride == Offset
  unsigned Jobs = 1;
  double Sigma = 0;
  std::string NamePrefix; ///< of the variants, unique per process
};

/// Evaluates the share's indexes of \p Evaluations around \p Parameters along
/// \p Directions on every program of \p Eval. Fails only when interrupted; a failed
/// evaluation is recorded in it.
llvm::Error evaluateShare(JobSet &Eval, const Policy &Init,
                          const std::vector<float> &Parameters,
                          const std::vector<std::vector<float>> &Directions,
                          const StepShare &Share, std::vector<StepEvaluation> &Evaluations);

/// The parameters \p E evaluated: \p Parameters, moved by its sign times \p Sigma
/// along its direction of \p Directions (none for the unperturbed policy).
std::vector<float> evaluatedParameters(const StepEvaluation &E,
                                       const std::vector<float> &Parameters,
                                       const std::vector<std::vector<float>> &Directions,
                                       double Sigma);

/// The index of the evaluation of \p Evaluations with the highest predicted speedup,
/// the lowest index among equals (the unperturbed policy first); none if none succeeded.
std::optional<size_t> bestEvaluation(const std::vector<StepEvaluation> &Evaluations);

/// A policy like \p Init with \p Parameters.
Policy withParameters(const Policy &Init, const std::vector<float> &Parameters,
                      std::string Name);

} // namespace mlgo
