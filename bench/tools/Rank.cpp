/// \file
/// rank-agreement: how alike two lists of numbers rank, for the bench scripts that
/// compare speedups (bench/train-repredict, bench/replay-engines) with the tool's
/// statistics (src/stats). Reads one pair "X Y" a line on standard input and prints
/// "spearman RHO kendall TAU pairs N" (RHO and TAU 0 when either list is constant).
///
/// Usage: rank-agreement < PAIRS
#include "stats/Statistics.h"

#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main(int Argc, char **) {
  if (Argc != 1) {
    std::fprintf(stderr, "usage: rank-agreement < PAIRS (a line 'X Y' each)\n");
    return 2;
  }
  std::vector<double> X, Y;
  std::string Line;
  for (size_t Number = 1; std::getline(std::cin, Line); ++Number) {
    std::istringstream Words(Line);
    double A, B;
    std::string Rest;
    if (!(Words >> A >> B) || (Words >> Rest)) {
      std::fprintf(stderr, "rank-agreement: error: line %zu is not 'X Y': %s\n", Number,
                   Line.c_str());
      return 2;
    }
    X.push_back(A);
    Y.push_back(B);
  }
  if (X.size() < 2) {
    std::fprintf(stderr, "rank-agreement: error: %zu pairs; ranks need 2 or more\n", X.size());
    return 2;
  }
  std::printf("spearman %.6f kendall %.6f pairs %zu\n", mlgo::stats::spearman(X, Y),
              mlgo::stats::kendallTauB(X, Y), X.size());
  return 0;
}
