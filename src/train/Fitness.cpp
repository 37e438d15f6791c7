/// \file
/// Fitness names and centered ranks.
#include "Fitness.h"

#include <algorithm>
#include <numeric>

namespace mlgo {

const char *fitnessName(Fitness F) { return F == Fitness::Rank ? "rank" : "zscore"; }

std::optional<Fitness> parseFitnessName(llvm::StringRef Name) {
  if (Name == "zscore")
    return Fitness::ZScore;
  if (Name == "rank")
    return Fitness::Rank;
  return std::nullopt;
}

std::vector<double> centeredRanks(const std::vector<double> &Values) {
  size_t N = Values.size();
  std::vector<double> Ranks(N, 0.0);
  if (N < 2)
    return Ranks;
  std::vector<size_t> Order(N);
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](size_t A, size_t B) { return Values[A] < Values[B]; });
  // One division of exact halves per value: each rank is the correctly rounded fraction.
  double Middle = double(N - 1) / 2;
  for (size_t First = 0; First < N;) {
    size_t Last = First;
    while (Last + 1 < N && Values[Order[Last + 1]] == Values[Order[First]])
      ++Last;
    double Rank = double(First + Last) / 2;
    for (size_t I = First; I <= Last; ++I)
      Ranks[Order[I]] = (Rank - Middle) / double(N - 1);
    First = Last + 1;
  }
  return Ranks;
}

} // namespace mlgo
