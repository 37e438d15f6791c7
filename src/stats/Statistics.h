/// \file
/// The statistics of native measurements and of prediction accuracy: quantiles, the
/// median's confidence interval, rank correlations (Spearman's rho and Kendall's tau-b,
/// both with ties) and the least-squares line. Standard C++ only.
#pragma once

#include <vector>

namespace mlgo::stats {

/// The \p Q quantile (0..1) of \p Values, interpolating linearly between order
/// statistics (R's type 7, NumPy's default). \p Values must not be empty.
double quantile(std::vector<double> Values, double Q);
inline double median(std::vector<double> Values) { return quantile(std::move(Values), 0.5); }

/// A distribution-free 95% confidence interval of the median of \p Values: the order
/// statistics n/2 -+ 1.96 sqrt(n)/2 (the normal approximation of the binomial), the
/// whole range when there are too few values. \p Values must not be empty.
struct Interval {
  double Low = 0, High = 0;
};
Interval medianInterval(std::vector<double> Values);

/// The rank of each value, 1-based, tied values getting the mean of their ranks.
std::vector<double> ranks(const std::vector<double> &Values);

/// Pearson's correlation; 0 when either side is constant.
double pearson(const std::vector<double> &X, const std::vector<double> &Y);

/// Spearman's rho: Pearson's correlation of the ranks.
double spearman(const std::vector<double> &X, const std::vector<double> &Y);

/// Kendall's tau-b: (concordant - discordant) pairs over the geometric mean of the
/// pairs untied in X and untied in Y; 0 when either side is constant.
double kendallTauB(const std::vector<double> &X, const std::vector<double> &Y);

/// Y = Slope * X + Offset by least squares, and its coefficient of determination.
struct LinearFit {
  double Slope = 0, Offset = 0, R2 = 0;
};
/// Needs at least two distinct X values (else the slope is 0 and the offset Y's mean).
LinearFit leastSquares(const std::vector<double> &X, const std::vector<double> &Y);

} // namespace mlgo::stats
