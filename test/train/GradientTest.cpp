// The ES gradient on rewards chosen so that every number below is exact in binary (or
// one correctly rounded fraction): worked out by hand from gradient =
// Σ_k (f⁺_k − f⁻_k) ε_k / (2 K σ), f the z-scores or centered ranks of the kept pairs.
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
  CHECK(esGradient(Pairs, Eps, {0.5}, 2) == std::vector<double>{0.25, 3});
  // Half the σ, twice the gradient.
  CHECK(esGradient(Pairs, Eps, {0.25}, 2) == std::vector<double>{0.5, 6});
  // The mean cancels: rewards 3, 1, 1, 3 have the same deviation and differences.
  CHECK(esGradient(pairRewards(stepWith({3, 1, 1, 3}), 2), Eps, {0.5}, 2) ==
        std::vector<double>{0.25, 3});
  // Twice the spread: twice the deviation, the same z-scores.
  CHECK(esGradient(pairRewards(stepWith({2, -2, -2, 2}), 2), Eps, {0.5}, 2) ==
        std::vector<double>{0.25, 3});
}

TEST_CASE("a failed evaluation drops its pair from the gradient", "[train]") {
  std::vector<std::vector<float>> Eps = {{0.5f, 1}, {8, 8}, {0.25f, -2}};
  // Direction 1 lost its θ − σε: K = 2 (directions 0 and 2), rewards 1, -1, -1, 1 as
  // above, and ε1 has no part in it.
  PairedRewards Pairs = pairRewards(stepWith({1, -1, 5, Failed, -1, 1}), 3);
  CHECK(Pairs.Kept == std::vector<uint32_t>{0, 2});
  CHECK(Pairs.Rewards == std::vector<double>{1, -1, -1, 1});
  CHECK(esGradient(Pairs, Eps, {0.5}, 2) == std::vector<double>{0.25, 3});
  // Every pair failed: nothing kept, no gradient.
  PairedRewards None = pairRewards(stepWith({Failed, 1, 2, Failed}), 2);
  CHECK(None.Kept.empty());
  CHECK(esGradient(None, Eps, {0.5}, 2) == std::vector<double>{0, 0});
}

TEST_CASE("equal rewards say nothing: the gradient is zero", "[train]") {
  std::vector<std::vector<float>> Eps = {{1, 1}, {1, -1}};
  PairedRewards Pairs = pairRewards(stepWith({0.25, 0.25, 0.25, 0.25}), 2);
  CHECK(Pairs.Kept.size() == 2);
  CHECK(esGradient(Pairs, Eps, {0.5}, 2) == std::vector<double>{0, 0});
}

TEST_CASE("centered ranks lie in [-0.5, 0.5] and average ties", "[train]") {
  // n = 5: rank r maps to (r - 2) / 4.
  CHECK(centeredRanks({3, 1, 2, 5, 4}) == std::vector<double>{0, -0.5, -0.25, 0.5, 0.25});
  // The two 2s share ranks 0 and 1 (0.5), the two 7s ranks 2 and 3 (2.5).
  CHECK(centeredRanks({2, 7, 2, 7, 9}) ==
        std::vector<double>{-0.375, 0.125, -0.375, 0.125, 0.5});
  // n = 4: (r - 1.5) / 3, one correctly rounded division.
  CHECK(centeredRanks({0.1, 0.3, 0.2, 0.4}) ==
        std::vector<double>{-0.5, 0.5 / 3, -0.5 / 3, 0.5});
  CHECK(centeredRanks({1, 1, 1}) == std::vector<double>{0, 0, 0});
  CHECK(centeredRanks({4}) == std::vector<double>{0});
  CHECK(centeredRanks({}).empty());
  CHECK(parseFitnessName("rank") == Fitness::Rank);
  CHECK(parseFitnessName("zscore") == Fitness::ZScore);
  CHECK(!parseFitnessName("ranks"));
  CHECK(std::string(fitnessName(Fitness::Rank)) == "rank");
}

TEST_CASE("the top pairs are those of the highest max(r+, r-), ties to the lower "
          "direction", "[train]") {
  // Maxima: d0 1, d1 2, d2 2, d3 -1.
  PairedRewards Pairs = pairRewards(stepWith({1, -1, 0.5, 2, 2, -3, -1, -2}), 4);
  PairedRewards One = topPairs(Pairs, 1);
  CHECK(One.Kept == std::vector<uint32_t>{1}); // d1 and d2 tie: the lower
  CHECK(One.Rewards == std::vector<double>{0.5, 2});
  CHECK(topPairs(Pairs, 2).Kept == std::vector<uint32_t>{1, 2});
  PairedRewards Three = topPairs(Pairs, 3);
  CHECK(Three.Kept == std::vector<uint32_t>{0, 1, 2}); // in direction order
  CHECK(Three.Rewards == std::vector<double>{1, -1, 0.5, 2, 2, -3});
  for (unsigned All : {0u, 4u, 5u}) {
    CHECK(topPairs(Pairs, All).Kept == Pairs.Kept);
    CHECK(topPairs(Pairs, All).Rewards == Pairs.Rewards);
  }
  // Only whole pairs compete: d1 failed, and d2 (max 2) beats d0 (max 1).
  PairedRewards Whole = pairRewards(stepWith({1, -1, Failed, 5, 2, -3, -1, -2}), 4);
  CHECK(topPairs(Whole, 1).Kept == std::vector<uint32_t>{2});
  CHECK(topPairs(Whole, 2).Kept == std::vector<uint32_t>{0, 2});
}

TEST_CASE("the gradient from centered ranks keeps only the rewards' order", "[train]") {
  std::vector<std::vector<float>> Eps = {{1, 0.5f}, {0.5f, 1}};
  // Rewards 10, -1 (d0) and 0, 1 (d1): ranks 3, 0, 1, 2, centered 0.5, -0.5, -1/6,
  // 1/6; differences 1 and -1/3; 2 K σ = 2: gradient = ε0 / 2 − ε1 / 6.
  const double Sixth = 0.5 / 3;
  const std::vector<double> Expected = {0.5 - Sixth / 2, 0.25 - Sixth};
  GradientSettings Rank{0.5, Fitness::Rank};
  CHECK(esGradient(pairRewards(stepWith({10, -1, 0, 1}), 2), Eps, Rank, 2) == Expected);
  // A larger outlier changes nothing; with z-scores it would weigh d1 still less.
  CHECK(esGradient(pairRewards(stepWith({1000, -1, 0, 1}), 2), Eps, Rank, 2) == Expected);
  // Equal rewards: every rank is 0, no gradient.
  CHECK(esGradient(pairRewards(stepWith({0.25, 0.25, 0.25, 0.25}), 2), Eps, Rank, 2) ==
        std::vector<double>{0, 0});
}

TEST_CASE("the gradient of the top pairs, with z-scores and with ranks", "[train]") {
  std::vector<std::vector<float>> Eps = {{0.5f, 1}, {0.25f, -2}, {8, 8}, {8, 8}};
  // Maxima 1, 1, 1, 0: the top 2 are d0 and d1 (d2 ties but comes later), rewards
  // 1, -1, -1, 1 as in the first case; shaped over those four alone.
  PairedRewards Pairs = pairRewards(stepWith({1, -1, -1, 1, 1, -1, 0, 0}), 4);
  // Z-scores: differences 2 and -2, 2 K σ = 2: ε0 − ε1.
  CHECK(esGradient(Pairs, Eps, {0.5, Fitness::ZScore, 2}, 2) ==
        std::vector<double>{0.25, 3});
  // Ranks: the -1s share ranks 0 and 1, the 1s ranks 2 and 3: centered ∓1/3;
  // differences ±2/3, so the gradient is (ε0 − ε1) / 3, summed as the code sums it.
  const double Third = 1.0 / 3;
  CHECK(esGradient(Pairs, Eps, {0.5, Fitness::Rank, 2}, 2) ==
        std::vector<double>{Third * 0.5 - Third * 0.25, Third + Third * 2});
  // Top 1: d0 alone (K = 1), ranks 0.5 and -0.5: ε0 / (2 · 1 · 0.5) · 1 = ε0.
  CHECK(esGradient(Pairs, Eps, {0.5, Fitness::Rank, 1}, 2) ==
        std::vector<double>{0.5, 1});
  // Top 3 keeps d2, a copy of d0's rewards: ranks over 1, -1, -1, 1, 1, -1 are ±0.3,
  // differences 0.6, -0.6, 0.6 over 2 K σ = 3: 0.2 (ε0 − ε1 + ε2).
  CHECK(esGradient(Pairs, Eps, {0.5, Fitness::Rank, 3}, 2)[0] ==
        Approx(0.2 * (0.5 - 0.25 + 8)));
}
