// Set cover on instances whose minimum is known by hand.
#include "SetCover.h"
#include "TestSupport.h"

using namespace mlgo;

namespace {

/// Elements 0..13. Sets 0-2 split them 2/4/8, which greedy takes (8 first); sets 3 and
/// 4 (the even and the odd elements) are the minimum cover.
std::vector<std::vector<uint32_t>> greedyTrap() {
  std::vector<std::vector<uint32_t>> Candidates(14);
  for (uint32_t E = 0; E < 14; ++E) {
    Candidates[E].push_back(E < 2 ? 0 : E < 6 ? 1 : 2);
    Candidates[E].push_back(E % 2 ? 4 : 3);
  }
  return Candidates;
}

} // namespace

TEST_CASE("finds the minimum where greedy does not", "[subset]") {
  SetCoverResult R = solveSetCover(greedyTrap(), 5);
  CHECK(R.Exact);
  CHECK(R.Sets == std::vector<uint32_t>{3, 4});
}

TEST_CASE("out of budget, returns a cover with greedy's guarantee", "[subset]") {
  SetCoverResult R = solveSetCover(greedyTrap(), 5, /*WorkBudget=*/1);
  CHECK_FALSE(R.Exact);
  CHECK(R.Sets == std::vector<uint32_t>{0, 1, 2});
  // H(8), the largest set having 8 elements.
  CHECK(R.GreedyBound == Approx(1 + 1. / 2 + 1. / 3 + 1. / 4 + 1. / 5 + 1. / 6 + 1. / 7 + 1. / 8));
}

TEST_CASE("an element with one candidate forces it", "[subset]") {
  SetCoverResult R = solveSetCover({{2}, {0, 2}, {1}, {0, 1}}, 3);
  CHECK(R.Exact);
  CHECK(R.Sets == std::vector<uint32_t>{1, 2});
}
