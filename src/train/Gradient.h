/// \file
/// The Evolution Strategies gradient of one step, from its antithetic pairs: a
/// direction counts only if both θ + σε and θ − σε were evaluated (a failure drops its
/// partner too), and rewards are z-scored over every kept evaluation.
#pragma once

#include "StepEvaluations.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mlgo {

/// The rewards (predicted speedups) of a step's whole pairs.
struct PairedRewards {
  std::vector<uint32_t> Kept;  ///< the directions whose two evaluations succeeded
  std::vector<double> Rewards; ///< per kept direction: that of θ + σε, then of θ − σε
};

/// The whole pairs of \p Outcomes (laid out by layoutStep with \p Perturbations).
PairedRewards pairRewards(const std::vector<StepEvaluation> &Outcomes,
                          unsigned Perturbations);

/// The gradient estimate Σ_k (r⁺_k − r⁻_k) / s · ε_k / (2 K σ) over the K kept
/// directions ε_k of \p Directions, where s is the standard deviation of all kept
/// rewards (their z-scores' difference: the mean cancels). All zero when the rewards
/// are all equal, which says nothing about any direction.
std::vector<double> esGradient(const PairedRewards &Pairs,
                               const std::vector<std::vector<float>> &Directions,
                               double Sigma, size_t Size);

} // namespace mlgo
