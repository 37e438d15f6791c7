/// \file
/// Set cover: forced choices, a greedy upper bound, then branch and bound on the
/// uncovered element with the fewest candidates.
#include "SetCover.h"

#include <algorithm>

namespace mlgo {

namespace {

class Search {
public:
  Search(const std::vector<std::vector<uint32_t>> &Candidates, uint32_t NumSets,
         uint64_t Budget)
      : Candidates(Candidates), Members(NumSets), CoverCount(Candidates.size(), 0),
        Budget(Budget) {
    for (uint32_t E = 0; E < Candidates.size(); ++E)
      for (uint32_t S : Candidates[E]) {
        Members[S].push_back(E);
        ++TotalMembers;
      }
  }

  /// Greedy: repeatedly the set covering the most uncovered elements.
  std::vector<uint32_t> greedy() const {
    std::vector<bool> Covered(Candidates.size(), false);
    std::vector<uint32_t> Chosen;
    for (size_t Left = Candidates.size(); Left;) {
      uint32_t Best = 0;
      size_t BestGain = 0;
      for (uint32_t S = 0; S < Members.size(); ++S) {
        size_t Gain = 0;
        for (uint32_t E : Members[S])
          Gain += !Covered[E];
        if (Gain > BestGain) {
          BestGain = Gain;
          Best = S;
        }
      }
      Chosen.push_back(Best);
      for (uint32_t E : Members[Best])
        if (!Covered[E]) {
          Covered[E] = true;
          --Left;
        }
    }
    return Chosen;
  }

  /// Branch and bound from the current partial cover; false when out of budget.
  bool branch(std::vector<uint32_t> &Partial, std::vector<uint32_t> &Best) {
    // Each node scans every element and set membership: budget that work.
    Work += Candidates.size() + TotalMembers;
    if (Work > Budget)
      return false;
    // The uncovered element with the fewest candidates: every cover picks one of them.
    int64_t Pick = -1;
    size_t Fewest = SIZE_MAX;
    size_t Uncovered = 0, LargestGain = 0;
    for (uint32_t E = 0; E < Candidates.size(); ++E) {
      if (CoverCount[E])
        continue;
      ++Uncovered;
      if (Candidates[E].size() < Fewest) {
        Fewest = Candidates[E].size();
        Pick = E;
      }
    }
    if (Pick < 0) {
      if (Partial.size() < Best.size())
        Best = Partial;
      return true;
    }
    for (uint32_t S = 0; S < Members.size(); ++S) {
      size_t Gain = 0;
      for (uint32_t E : Members[S])
        Gain += !CoverCount[E];
      LargestGain = std::max(LargestGain, Gain);
    }
    // Lower bound: even the largest remaining set needs this many more picks.
    size_t Needed = (Uncovered + LargestGain - 1) / LargestGain;
    if (Partial.size() + Needed >= Best.size())
      return true;
    for (uint32_t S : Candidates[Pick]) {
      Partial.push_back(S);
      for (uint32_t E : Members[S])
        ++CoverCount[E];
      bool Finished = branch(Partial, Best);
      for (uint32_t E : Members[S])
        --CoverCount[E];
      Partial.pop_back();
      if (!Finished)
        return false;
    }
    return true;
  }

  size_t largestSet() const {
    size_t Largest = 1;
    for (const auto &M : Members)
      Largest = std::max(Largest, M.size());
    return Largest;
  }

private:
  const std::vector<std::vector<uint32_t>> &Candidates;
  std::vector<std::vector<uint32_t>> Members; ///< per set, the elements it covers
  std::vector<uint32_t> CoverCount;           ///< per element, chosen sets covering it
  uint64_t TotalMembers = 0;
  uint64_t Budget, Work = 0;
};

} // namespace

SetCoverResult solveSetCover(const std::vector<std::vector<uint32_t>> &Candidates,
                             uint32_t NumSets, uint64_t WorkBudget) {
  Search S(Candidates, NumSets, WorkBudget);
  SetCoverResult R;
  std::vector<uint32_t> Best = S.greedy();
  std::vector<uint32_t> Partial;
  R.Exact = S.branch(Partial, Best);
  if (!R.Exact) { // Best is still at least as good as greedy's
    for (size_t K = 2; K <= S.largestSet(); ++K)
      R.GreedyBound += 1.0 / K;
  }
  R.Sets = Best;
  std::sort(R.Sets.begin(), R.Sets.end());
  return R;
}

} // namespace mlgo
