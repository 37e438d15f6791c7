#include "Statistics.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>

namespace mlgo::stats {

double quantile(std::vector<double> Values, double Q) {
  assert(!Values.empty() && Q >= 0 && Q <= 1 && "quantile of nothing");
  std::sort(Values.begin(), Values.end());
  double Position = Q * double(Values.size() - 1);
  size_t Below = size_t(std::floor(Position));
  size_t Above = std::min(Below + 1, Values.size() - 1);
  double Fraction = Position - double(Below);
  return Values[Below] + Fraction * (Values[Above] - Values[Below]);
}

Interval medianInterval(std::vector<double> Values) {
  assert(!Values.empty() && "median of nothing");
  std::sort(Values.begin(), Values.end());
  double N = double(Values.size());
  double Below = std::floor(N / 2 - 1.96 * std::sqrt(N) / 2);
  size_t K = Below < 0 ? 0 : size_t(Below);
  return {Values[K], Values[Values.size() - 1 - K]};
}

std::vector<double> ranks(const std::vector<double> &Values) {
  std::vector<size_t> Order(Values.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](size_t A, size_t B) { return Values[A] < Values[B]; });
  std::vector<double> Ranks(Values.size());
  for (size_t First = 0; First < Order.size();) {
    size_t Last = First;
    while (Last + 1 < Order.size() && Values[Order[Last + 1]] == Values[Order[First]])
      ++Last;
    double Mean = (double(First) + double(Last)) / 2 + 1;
    for (size_t I = First; I <= Last; ++I)
      Ranks[Order[I]] = Mean;
    First = Last + 1;
  }
  return Ranks;
}

static double mean(const std::vector<double> &V) {
  return V.empty() ? 0 : std::accumulate(V.begin(), V.end(), 0.0) / double(V.size());
}

double pearson(const std::vector<double> &X, const std::vector<double> &Y) {
  assert(X.size() == Y.size() && "pairs of unequal length");
  double MX = mean(X), MY = mean(Y), SXY = 0, SXX = 0, SYY = 0;
  for (size_t I = 0; I < X.size(); ++I) {
    SXY += (X[I] - MX) * (Y[I] - MY);
    SXX += (X[I] - MX) * (X[I] - MX);
    SYY += (Y[I] - MY) * (Y[I] - MY);
  }
  return SXX == 0 || SYY == 0 ? 0 : SXY / std::sqrt(SXX * SYY);
}

double spearman(const std::vector<double> &X, const std::vector<double> &Y) {
  return pearson(ranks(X), ranks(Y));
}

double kendallTauB(const std::vector<double> &X, const std::vector<double> &Y) {
  assert(X.size() == Y.size() && "pairs of unequal length");
  // O(n^2): bench/accuracy has tens of variants.
  double Concordant = 0, Discordant = 0, UntiedX = 0, UntiedY = 0;
  for (size_t I = 0; I < X.size(); ++I)
    for (size_t J = I + 1; J < X.size(); ++J) {
      double DX = X[I] - X[J], DY = Y[I] - Y[J];
      UntiedX += DX != 0;
      UntiedY += DY != 0;
      if (DX * DY > 0)
        ++Concordant;
      else if (DX * DY < 0)
        ++Discordant;
    }
  return UntiedX == 0 || UntiedY == 0 ? 0
                                      : (Concordant - Discordant) / std::sqrt(UntiedX * UntiedY);
}

LinearFit leastSquares(const std::vector<double> &X, const std::vector<double> &Y) {
  assert(X.size() == Y.size() && "pairs of unequal length");
  LinearFit Fit;
  double MX = mean(X), MY = mean(Y), SXY = 0, SXX = 0, SYY = 0;
  for (size_t I = 0; I < X.size(); ++I) {
    SXY += (X[I] - MX) * (Y[I] - MY);
    SXX += (X[I] - MX) * (X[I] - MX);
    SYY += (Y[I] - MY) * (Y[I] - MY);
  }
  Fit.Offset = MY;
  if (SXX == 0)
    return Fit;
  Fit.Slope = SXY / SXX;
  Fit.Offset = MY - Fit.Slope * MX;
  Fit.R2 = SYY == 0 ? 1 : SXY * SXY / (SXX * SYY);
  return Fit;
}

} // namespace mlgo::stats
