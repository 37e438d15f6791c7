/// \file
/// The Evolution Strategies gradient of one step, from its antithetic pairs: a
/// direction counts only if both θ + σε and θ − σε were evaluated (a failure drops its
/// partner too); optionally only the top pairs count; their rewards are shaped
/// (Fitness.h) over every counted evaluation.
#pragma once

#include "Fitness.h"
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

/// The \p Top pairs of \p Pairs with the highest max(r⁺, r⁻) (ml-compiler-opt's ES:
/// directions whose both sides lose say little about where to go), ties going to the
/// lower direction, in direction order; all of them when \p Top is 0 or at least their
/// number.
PairedRewards topPairs(const PairedRewards &Pairs, unsigned Top);

/// How the ES step estimates its gradient.
struct GradientSettings {
  double Sigma = 0.05;
  Fitness Shaping = Fitness::ZScore;
  unsigned Top = 0; ///< pairs kept by topPairs; 0: all
};

/// The gradient estimate Σ_k (f⁺_k − f⁻_k) ε_k / (2 K σ) over the K directions ε_k of
/// \p Directions that topPairs keeps of \p Pairs, where f are the shaped rewards of
/// those K pairs: z-scores (only the difference matters, so the mean cancels: it is
/// (r⁺ − r⁻) / s with s the standard deviation of the 2K rewards) or centered ranks.
/// All zero when the rewards are all equal, which says nothing about any direction.
std::vector<double> esGradient(const PairedRewards &Pairs,
                               const std::vector<std::vector<float>> &Directions,
                               const GradientSettings &Settings, size_t Size);

} // namespace mlgo
