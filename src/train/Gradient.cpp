/// \file
/// Pairing a step's rewards and estimating the gradient from them.
#include "Gradient.h"

#include <cmath>
#include <numeric>

namespace mlgo {

PairedRewards pairRewards(const std::vector<StepEvaluation> &Outcomes,
                          unsigned Perturbations) {
  PairedRewards P;
  for (uint32_t D = 0; D < Perturbations; ++D)
    if (Outcomes[1 + 2 * D].Result && Outcomes[2 + 2 * D].Result) {
      P.Kept.push_back(D);
      P.Rewards.push_back(Outcomes[1 + 2 * D].Result->Speedup);
      P.Rewards.push_back(Outcomes[2 + 2 * D].Result->Speedup);
    }
  return P;
}

std::vector<double> esGradient(const PairedRewards &Pairs,
                               const std::vector<std::vector<float>> &Directions,
                               double Sigma, size_t Size) {
  const std::vector<double> &Rewards = Pairs.Rewards;
  std::vector<double> Gradient(Size, 0.0);
  if (Rewards.empty())
    return Gradient;
  double Mean = std::accumulate(Rewards.begin(), Rewards.end(), 0.0) / Rewards.size();
  double Variance = 0;
  for (double R : Rewards)
    Variance += (R - Mean) * (R - Mean);
  double Deviation = std::sqrt(Variance / Rewards.size());
  if (!(Deviation > 0))
    return Gradient;
  for (size_t K = 0; K < Pairs.Kept.size(); ++K) {
    double Difference = (Rewards[2 * K] - Rewards[2 * K + 1]) / Deviation;
    double Scale = Difference / (2 * Pairs.Kept.size() * Sigma);
    const std::vector<float> &Eps = Directions[Pairs.Kept[K]];
    for (size_t J = 0; J < Size; ++J)
      Gradient[J] += Scale * Eps[J];
  }
  return Gradient;
}

} // namespace mlgo
