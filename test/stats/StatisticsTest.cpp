// stats/Statistics: quantiles, ranks with ties, Spearman, Kendall tau-b and least
// squares against values worked out by hand (and matching SciPy's).
#include "stats/Statistics.h"

#include <catch2/catch.hpp>

using namespace mlgo::stats;

TEST_CASE("the median's confidence interval is a pair of order statistics", "[stats]") {
  std::vector<double> Hundred;
  for (int I = 100; I >= 1; --I)
    Hundred.push_back(I);
  // 100/2 - 1.96 * sqrt(100)/2 = 40.2: the 41st smallest and the 41st largest.
  Interval Of100 = medianInterval(Hundred);
  CHECK(Of100.Low == 41);
  CHECK(Of100.High == 60);
  // Four values are too few for 95%: the whole range.
  Interval Of4 = medianInterval({3, 9, 1, 4});
  CHECK(Of4.Low == 1);
  CHECK(Of4.High == 9);
}

TEST_CASE("quantiles interpolate between order statistics", "[stats]") {
  CHECK(quantile({4, 1, 3, 2}, 0.25) == Approx(1.75));
  CHECK(quantile({4, 1, 3, 2}, 0.75) == Approx(3.25));
  CHECK(median({3, 1, 2}) == 2);
  CHECK(median({7}) == 7);
  CHECK(quantile({5, 1}, 0) == 1);
  CHECK(quantile({5, 1}, 1) == 5);
}

TEST_CASE("tied values share the mean of their ranks", "[stats]") {
  CHECK(ranks({10, 20, 20, 5}) == std::vector<double>{2, 3.5, 3.5, 1});
  CHECK(ranks({1, 1, 1}) == std::vector<double>{2, 2, 2});
}

TEST_CASE("Spearman's rho is the correlation of the ranks", "[stats]") {
  CHECK(spearman({1, 2, 3, 4}, {1, 8, 27, 64}) == Approx(1));
  CHECK(spearman({1, 2, 3, 4}, {4, 3, 2, 1}) == Approx(-1));
  CHECK(spearman({1, 2, 3, 4}, {1, 1, 2, 2}) == Approx(0.894427191));
  CHECK(spearman({1, 2, 3}, {5, 5, 5}) == 0);
}

TEST_CASE("Kendall's tau-b counts pairs and corrects for ties", "[stats]") {
  CHECK(kendallTauB({1, 2, 3, 4, 5}, {1, 3, 2, 5, 4}) == Approx(0.6));
  CHECK(kendallTauB({1, 1, 2, 3}, {1, 2, 2, 3}) == Approx(0.8));
  CHECK(kendallTauB({1, 2, 3}, {3, 2, 1}) == Approx(-1));
  CHECK(kendallTauB({1, 1}, {1, 2}) == 0);
}

TEST_CASE("least squares finds slope, offset and R^2", "[stats]") {
  LinearFit Exact = leastSquares({0, 1, 2, 3}, {1, 3, 5, 7});
  CHECK(Exact.Slope == Approx(2));
  CHECK(Exact.Offset == Approx(1));
  CHECK(Exact.R2 == Approx(1));
  LinearFit Noisy = leastSquares({0, 1, 2}, {0, 2, 1});
  CHECK(Noisy.Slope == Approx(0.5));
  CHECK(Noisy.Offset == Approx(0.5));
  CHECK(Noisy.R2 == Approx(0.25));
  LinearFit Flat = leastSquares({1, 1}, {2, 4});
  CHECK(Flat.Slope == 0);
  CHECK(Flat.Offset == Approx(3));
}
