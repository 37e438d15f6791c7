/// \file
/// The built-in policies.
///
/// `initial` hand-sets the network to approximate the greedy allocator's own eviction
/// rule (RegAllocEvictionAdvisor.cpp): among legal registers, take the hint if it is
/// evictable, else the one whose occupants break the fewest hints and whose heaviest
/// occupant is lightest (a free register costs nothing), but only if every occupant is
/// lighter than the live range being allocated; otherwise evict nothing (column 32). Ties
/// go to the first column, as greedy keeps the first register in allocation order. Not
/// modelled: the "urgent" evictions of unspillable ranges, and that greedy's rules
/// apply per occupant where the features give maxima and sums. (Greedy's waiver for the
/// hint register, whose splittable occupants may be heavier, belongs to tryAssign,
/// not to the eviction search the advisor replaces: modelling it made 37 more of 196
/// functions differ from `default`; greedy's refusal to evict local ranges after a
/// first candidate, via is_local, changed none.) The first hidden layer computes
///   u0 = relu(nr_broken_hints - 10 c)      u1 = relu(use_def_density - 10 c)
///   u2 = relu(K d + 1 - 10 c - 10 f)       u3 = relu(K d - 10 c - 10 f)
///   u4 = relu(c)                           u5 = relu(is_hint - c)
/// with c = is_candidate, f = is_free and d = use_def_density -
/// candidate.use_def_density, so u2 - u3 is a step (1 when the occupant is at least as
/// heavy as the candidate, 0 when it is lighter by 1/K = 1e-6 or more). The second layer
/// copies them, and the score is
///   -100 u0 - u1 - 1000 (u2 - u3) - 500 u4 + 200 u5.
/// Hints outweigh weights (both are divided by their largest value over the columns, so
/// fewer broken hints differ by at least 1/max), a heavier occupant makes a column lose
/// to column 32, and column 32 scores -500.
///
/// `poor` evicts the heaviest legal occupant whenever it may, never spilling or
/// splitting instead: a legal policy that makes bad code, for tests.
#include "Policy.h"

#include "ColumnEncoding.h"

namespace mlgo {

namespace {

/// Sets weights by input name on a fresh default-sized network.
class WeightSetter {
public:
  WeightSetter() : Net(columnInputCount(), Policy::defaultHidden()) {}
  void first(int Unit, const std::string &InputName, float W) {
    at(0, Unit, columnInputIndex(InputName)) = W;
  }
  void firstBias(int Unit, float B) { Net.parameters()[Net.biasOffset(0) + Unit] = B; }
  /// Layer 1 copies unit \p Unit of layer 0.
  void copy(int Unit) { at(1, Unit, Unit) = 1; }
  void output(int Unit, float W) { at(2, 0, Unit) = W; }
  Network take() { return std::move(Net); }

private:
  float &at(int Layer, int Out, int In) {
    int InWidth = Net.widths()[Layer];
    return Net.parameters()[Net.weightOffset(Layer) + size_t(Out) * InWidth + In];
  }
  Network Net;
};

/// K: occupants lighter by less than 1/K count as partly heavier. 1000 made one more
/// function of 196 differ from `default`; floats keep K d + 1 - K d exact up to 2^24.
constexpr float Steepness = 1e6f;

Policy makeInitial() {
  WeightSetter S;
  const char *C = "is_candidate";
  S.first(0, "nr_broken_hints", 1);
  S.first(0, C, -10);
  S.first(1, "use_def_density", 1);
  S.first(1, C, -10);
  for (int Unit : {2, 3}) {
    S.first(Unit, "use_def_density", Steepness);
    S.first(Unit, "candidate.use_def_density", -Steepness);
    S.first(Unit, C, -10);
    S.first(Unit, "is_free", -10); // a free register has no occupant to compare
  }
  S.firstBias(2, 1);
  S.first(4, C, 1);
  S.first(5, "is_hint", 1);
  S.first(5, C, -1);
  const float Out[] = {-100, -1, -1000, 1000, -500, 200};
  for (int Unit = 0; Unit < 6; ++Unit) {
    S.copy(Unit);
    S.output(Unit, Out[Unit]);
  }
  return Policy::makeNetwork("initial", S.take());
}

Policy makePoor() {
  WeightSetter S;
  S.first(0, "use_def_density", 1);
  S.first(0, "is_candidate", -10);
  S.first(1, "is_candidate", 1);
  S.copy(0);
  S.copy(1);
  S.output(0, 1);
  S.output(1, -1000);
  return Policy::makeNetwork("poor", S.take());
}

} // namespace

const std::vector<std::string> &builtinPolicyNames() {
  static const std::vector<std::string> Names = {"default", "initial", "poor"};
  return Names;
}

llvm::Expected<Policy> builtinPolicy(llvm::StringRef Name) {
  if (Name == "default")
    return Policy::makeDefault();
  if (Name == "initial")
    return makeInitial();
  if (Name == "poor")
    return makePoor();
  return inputError(Name, "no built-in policy of this name (known: default, initial, "
                          "poor)");
}

} // namespace mlgo
