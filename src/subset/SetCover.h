/// \file
/// Minimum set cover for choosing modules: every element (a traced function) must be
/// covered by one of its candidate sets (the modules that define it), with as few sets
/// as possible. Solved exactly by branch and bound when the search stays within a work
/// budget, else by the best cover found (no worse than greedy's) (at most H(d) times the optimum, d the largest set).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mlgo {

struct SetCoverResult {
  std::vector<uint32_t> Sets; ///< the chosen sets, ascending
  bool Exact = false;         ///< proven minimal
  /// When not exact: the guarantee H(d) of greedy, the harmonic number of the largest
  /// set (the cover is at most that many times the optimum).
  double GreedyBound = 1;
};

/// \p Candidates[E] lists the sets that cover element E (each non-empty); \p NumSets
/// bounds the set indexes. \p WorkBudget caps the branch-and-bound search, in element
/// and membership visits (the default takes well under a second).
SetCoverResult solveSetCover(const std::vector<std::vector<uint32_t>> &Candidates,
                             uint32_t NumSets, uint64_t WorkBudget = 200000000);

} // namespace mlgo
