#include "Policy.h"
#include "TestSupport.h"

#include <random>

using namespace mlgo;
using namespace mlgo::test;

namespace {

struct Column {
  int Index;
  float Weight;      ///< use_def_density (LLVM already divided it by the largest)
  float BrokenHints; ///< nr_broken_hints, likewise
  bool Hint = false;
  bool Free = false;
};

Observation build(float CandidateWeight, std::vector<Column> Columns,
                  bool CandidateLegal = true) {
  Observation O;
  for (const Column &C : Columns) {
    O.setInt(F_mask, C.Index, 1);
    O.setInt(F_is_hint, C.Index, C.Hint);
    O.setInt(F_is_free, C.Index, C.Free);
    O.setFloat(F_use_def_density, C.Index, C.Weight);
    O.setFloat(F_nr_broken_hints, C.Index, C.BrokenHints);
  }
  O.setInt(F_mask, CandidateColumn, CandidateLegal);
  O.setFloat(F_use_def_density, CandidateColumn, CandidateWeight);
  return O;
}

/// The greedy rule in the order the allocator applies it: scan the columns in
/// allocation order, stop at an evictable hint, keep the first strictly cheaper
/// (broken hints, then weight) column whose occupants are all lighter.
int64_t greedy(const Observation &O) {
  int64_t Best = -1;
  std::pair<float, float> BestCost;
  for (int C = 0; C < CandidateColumn; ++C) {
    if (!O.legal(C))
      continue;
    float W = O.floatAt(F_use_def_density, C);
    bool Free = O.intAt(F_is_free, C);
    if (!Free && !(W < O.floatAt(F_use_def_density, CandidateColumn)))
      continue;
    if (O.intAt(F_is_hint, C))
      return C;
    std::pair<float, float> Cost = {O.floatAt(F_nr_broken_hints, C), W};
    if (Best < 0 || Cost < BestCost) {
      Best = C;
      BestCost = Cost;
    }
  }
  return Best < 0 ? CandidateColumn : Best;
}

} // namespace

TEST_CASE("initial evicts like greedy on hand-built decisions", "[policy]") {
  Policy P = requireOk(builtinPolicy("initial"));
  // The lightest occupant among those lighter than the candidate.
  REQUIRE(P.decide(build(0.8f, {{0, 0.5f, 0}, {4, 0.3f, 0}, {7, 0.6f, 0}})) == 4);
  // Fewer broken hints first, even for a heavier occupant.
  REQUIRE(P.decide(build(0.8f, {{0, 0.5f, 0}, {4, 0.3f, 0.5f}})) == 0);
  // Every occupant is as heavy as the candidate or heavier: evict nothing.
  REQUIRE(P.decide(build(0.5f, {{1, 0.5f, 0}, {2, 1.0f, 0}})) == CandidateColumn);
  // The hint register wins when it is evictable ...
  REQUIRE(P.decide(build(0.8f, {{0, 0.6f, 0, true}, {3, 0.1f, 0}})) == 0);
  // ... but not when its occupant is heavier.
  REQUIRE(P.decide(build(0.5f, {{0, 0.6f, 0, true}, {3, 0.1f, 0}})) == 3);
  // A free register costs nothing, so it beats any eviction.
  REQUIRE(P.decide(build(0.8f, {{2, 0.1f, 0}, {5, 0, 0, false, true}})) == 5);
  // Even when the candidate's own weight is 0.
  REQUIRE(P.decide(build(0, {{2, 0.1f, 0}, {5, 0, 0, false, true}})) == 5);
  // Ties go to the first column in allocation order.
  REQUIRE(P.decide(build(0.8f, {{6, 0.25f, 0}, {9, 0.25f, 0}})) == 6);
  // Column 32 masked (an unspillable candidate): the cheapest legal column.
  REQUIRE(P.decide(build(0.2f, {{1, 0.9f, 0}, {2, 0.4f, 0}}, false)) == 2);
}

TEST_CASE("initial agrees with the greedy rule on random decisions", "[policy]") {
  Policy P = requireOk(builtinPolicy("initial"));
  std::mt19937 Rng(1);
  std::uniform_int_distribution<int> Eighths(0, 8), Col(0, 31), Coin(0, 3);
  int Evictions = 0, Spills = 0;
  for (int I = 0; I < 5000; ++I) {
    std::vector<Column> Columns;
    int Hint = Coin(Rng) == 0 ? Col(Rng) : -1;
    for (int C = 0; C < 32; ++C) {
      if (Coin(Rng) != 0)
        continue;
      bool Free = Coin(Rng) == 0 && Eighths(Rng) == 0;
      Columns.push_back({C, Free ? 0 : Eighths(Rng) / 8.0f,
                         Free ? 0 : (Coin(Rng) == 0 ? Eighths(Rng) / 8.0f : 0), C == Hint,
                         Free});
    }
    Observation O = build(Eighths(Rng) / 8.0f, Columns);
    int64_t Expected = greedy(O);
    (Expected == CandidateColumn ? Spills : Evictions) += 1;
    REQUIRE(P.decide(O) == Expected);
  }
  // Both outcomes were exercised.
  REQUIRE(Evictions > 1000);
  REQUIRE(Spills > 500);
}
