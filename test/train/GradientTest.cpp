// The ES gradient on rewards chosen so that every number below is exact in binary:
// worked out by hand from gradient = Σ_k (r⁺_k − r⁻_k) / s · ε_k / (2 K σ).
#include "Gradient.h"
#include "TestSupport.h"

#include <cmath>

using namespace mlgo;
using namespace mlgo::test;

namespace {

/// A step of \p Speedups.size() / 2 directions whose pairs got these speedups (a NaN:
/// that evaluation failed); the unperturbed policy's is 0.
std::vector<StepEvaluation> stepWith(const std::vector<double> &Speedups) {
  std::vector<StepEvaluation> Step = layoutStep(unsigned(Speedups.size() / 2));
  Step[0].Result = Evaluation{};
  for (size_t I = 0; I < Speedups.size(); ++I)
    if (!std::isnan(Speedups[I])) {
      Step[1 + I].Result = Evaluation{};
      Step[1 + I].Result->Speedup = Speedups[I];
    } else {
      Step[1 + I].Failure = "failed";
    }
  return Step;
}

const double Failed = std::nan("");

} // namespace

TEST_CASE("the ES gradient weighs each direction by its pair's z-scored difference",
          "[train]") {
  std::vector<std::vector<float>> Eps = {{0.5f, 1}, {0.25f, -2}};
  // Rewards 1, -1, -1, 1: mean 0, standard deviation 1; differences 2 and -2;
  // 2 K σ = 2 · 2 · 0.5 = 2: gradient = ε0 − ε1 = (0.25, 3).
  PairedRewards Pairs = pairRewards(stepWith({1, -1, -1, 1}), 2);
  CHECK(Pairs.Kept == std::vector<uint32_t>{0, 1});
  CHECK(Pairs.Rewards == std::vector<double>{1, -1, -1, 1});
  CHECK(esGradient(Pairs, Eps, 0.5, 2) == std::vector<double>{0.25, 3});
  // Half the σ, twice the gradient.
  CHECK(esGradient(Pairs, Eps, 0.25, 2) == std::vector<double>{0.5, 6});
  // The mean cancels: rewards 3, 1, 1, 3 have the same deviation and differences.
  CHECK(esGradient(pairRewards(stepWith({3, 1, 1, 3}), 2), Eps, 0.5, 2) ==
        std::vector<double>{0.25, 3});
  // Twice the spread: twice the deviation, the same z-scores.
  CHECK(esGradient(pairRewards(stepWith({2, -2, -2, 2}), 2), Eps, 0.5, 2) ==
        std::vector<double>{0.25, 3});
}

TEST_CASE("a failed evaluation drops its pair from the gradient", "[train]") {
  std::vector<std::vector<float>> Eps = {{0.5f, 1}, {8, 8}, {0.25f, -2}};
  // Direction 1 lost its θ − σε: K = 2 (directions 0 and 2), rewards 1, -1, -1, 1 as
  // above, and ε1 has no part in it.
  PairedRewards Pairs = pairRewards(stepWith({1, -1, 5, Failed, -1, 1}), 3);
  CHECK(Pairs.Kept == std::vector<uint32_t>{0, 2});
  CHECK(Pairs.Rewards == std::vector<double>{1, -1, -1, 1});
  CHECK(esGradient(Pairs, Eps, 0.5, 2) == std::vector<double>{0.25, 3});
  // Every pair failed: nothing kept, no gradient.
  PairedRewards None = pairRewards(stepWith({Failed, 1, 2, Failed}), 2);
  CHECK(None.Kept.empty());
  CHECK(esGradient(None, Eps, 0.5, 2) == std::vector<double>{0, 0});
}

TEST_CASE("equal rewards say nothing: the gradient is zero", "[train]") {
  std::vector<std::vector<float>> Eps = {{1, 1}, {1, -1}};
  PairedRewards Pairs = pairRewards(stepWith({0.25, 0.25, 0.25, 0.25}), 2);
  CHECK(Pairs.Kept.size() == 2);
  CHECK(esGradient(Pairs, Eps, 0.5, 2) == std::vector<double>{0, 0});
}
