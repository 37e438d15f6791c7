/// \file
/// Pairing a step's rewards, keeping the top pairs and estimating the gradient.
#include "Gradient.h"

#include <algorithm>
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

PairedRewards topPairs(const PairedRewards &Pairs, unsigned Top) {
  size_t Count = Pairs.Kept.size();
  if (Top == 0 || Top >= Count)
    return Pairs;
  auto Best = [&](size_t K) {
    return std::max(Pairs.Rewards[2 * K], Pairs.Rewards[2 * K + 1]);
  };
  std::vector<size_t> Order(Count);
  std::iota(Order.begin(), Order.end(), 0);
  // Stable: among equal maxima, the lower direction (Kept is in direction order).
  std::stable_sort(Order.begin(), Order.end(),
                   [&](size_t A, size_t B) { return Best(A) > Best(B); });
  Order.resize(Top);
  std::sort(Order.begin(), Order.end());
  PairedRewards Kept;
  for (size_t K : Order) {
    Kept.Kept.push_back(Pairs.Kept[K]);
    Kept.Rewards.push_back(Pairs.Rewards[2 * K]);
    Kept.Rewards.push_back(Pairs.Rewards[2 * K + 1]);
  }
  return Kept;
}

namespace {

/// Per pair, f⁺ − f⁻ of the z-scored rewards: (r⁺ − r⁻) / s. Empty when s is 0.
std::vector<double> zScoreDifferences(const std::vector<double> &Rewards) {
  double Mean = std::accumulate(Rewards.begin(), Rewards.end(), 0.0) / Rewards.size();
  double Variance = 0;
  for (double R : Rewards)
    Variance += (R - Mean) * (R - Mean);
  double Deviation = std::sqrt(Variance / Rewards.size());
  if (!(Deviation > 0))
    return {};
  std::vector<double> Differences;
  for (size_t I = 0; I < Rewards.size(); I += 2)
    Differences.push_back((Rewards[I] - Rewards[I + 1]) / Deviation);
  return Differences;
}

/// Per pair, f⁺ − f⁻ of the centered ranks.
std::vector<double> rankDifferences(const std::vector<double> &Rewards) {
  std::vector<double> Ranks = centeredRanks(Rewards);
  std::vector<double> Differences;
  for (size_t I = 0; I < Ranks.size(); I += 2)
    Differences.push_back(Ranks[I] - Ranks[I + 1]);
  return Differences;
}

} // namespace

std::vector<double> esGradient(const PairedRewards &Given,
                               const std::vector<std::vector<float>> &Directions,
                               const GradientSettings &Settings, size_t Size) {
  std::vector<double> Gradient(Size, 0.0);
  PairedRewards Pairs = topPairs(Given, Settings.Top);
  if (Pairs.Rewards.empty())
    return Gradient;
  std::vector<double> Differences = Settings.Shaping == Fitness::Rank
                                        ? rankDifferences(Pairs.Rewards)
                                        : zScoreDifferences(Pairs.Rewards);
  for (size_t K = 0; K < Differences.size(); ++K) {
    double Scale = Differences[K] / (2 * Pairs.Kept.size() * Settings.Sigma);
    const std::vector<float> &Eps = Directions[Pairs.Kept[K]];
    for (size_t J = 0; J < Size; ++J)
      Gradient[J] += Scale * Eps[J];
  }
  return Gradient;
}

} // namespace mlgo
