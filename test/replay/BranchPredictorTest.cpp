// The branch predictor on outcome patterns whose predictability is known: constant,
// alternating, short loops and an indirect jump's cycle of targets are learned once
// the history holds them, a random pattern is mispredicted about half the time.
#include "replay/refill/BranchPredictor.h"

#include <catch2/catch.hpp>
#include <functional>

using namespace mlgo;

namespace {

/// Mispredictions of a branch going to Pattern(k) in turn, \p Times times, from the
/// \p From-th on (before, the history fills up), with other branches in between
/// (\p Noise: a second site, always the same way).
uint64_t mispredictions(const std::function<uint32_t(uint64_t)> &Pattern,
                        uint64_t Times, bool Noise = false, uint64_t From = 0) {
  BranchPredictor Predictor;
  uint64_t Wrong = 0;
  for (uint64_t N = 0; N < Times; ++N) {
    Wrong += !Predictor.predicts(5, Pattern(N)) && N >= From;
    if (Noise)
      Predictor.predicts(6, 40);
  }
  return Wrong;
}

/// The next state of a fixed linear congruential generator: the same numbers every
/// run. Its top bits are the random ones.
uint64_t nextRandom(uint64_t &State) {
  return State = State * 6364136223846793005ull + 1442695040888963407ull;
}

} // namespace

TEST_CASE("branch predictor: regular patterns are learned", "[replay][branch]") {
  // Once the paths hold the pattern (after the longest path's transfers, a few more with
  // the second branch in between), none is wrong.
  const uint64_t Learned = 4 * BranchPredictor::PathLengths.back();
  for (bool Noise : {false, true}) {
    INFO("noise " << Noise);
    CHECK(mispredictions([](uint64_t) { return 7u; }, 1000, Noise) == 0);
    // Alternating, and a loop of five iterations (four times back, once out).
    CHECK(mispredictions([](uint64_t N) { return 7u + N % 2; }, 1000,
                         Noise, Learned) == 0);
    CHECK(mispredictions([](uint64_t N) { return N % 5 == 4 ? 9u : 7u; },
                         1000, Noise, Learned) == 0);
    // An indirect jump through a table of three targets in turn.
    CHECK(mispredictions([](uint64_t N) { return 20u + N % 3; }, 1000, Noise,
                         Learned) == 0);
    // Learning takes a while: the first time round, each new history is guessed
    // without it.
    CHECK(mispredictions([](uint64_t N) { return 7u + N % 2; }, 1000,
                         Noise) > 0);
  }
}

TEST_CASE("branch predictor: a random branch is mispredicted half the time",
          "[replay][branch]") {
  // A fixed linear congruential generator's top bit: the same outcomes every run.
  uint64_t State = 12345;
  std::vector<uint32_t> Random(4000);
  for (uint32_t &Next : Random)
    Next = 7 + uint32_t(nextRandom(State) >> 63);
  uint64_t Wrong =
      mispredictions([&](uint64_t N) { return Random[N]; }, Random.size());
  CHECK(Wrong > Random.size() * 4 / 10);
  CHECK(Wrong < Random.size() * 6 / 10);
}

TEST_CASE("branch predictor: an interpreter's dispatch is learned over a few runs",
          "[replay][branch]") {
  // A bytecode program of 40 operations of 8 kinds, run 10 times: the dispatch (site 1)
  // jumps to the operation's handler (segment 10 + kind), which jumps back (site 10 +
  // kind, to 1). Which handler comes next depends on where in the program the dispatch
  // is, which only a path of several dispatches tells; a core learns it within a few
  // runs (bench/ipc: the interpreter example runs 3.5 instructions a cycle).
  uint64_t State = 99;
  std::vector<uint32_t> Program(40);
  for (uint32_t &Kind : Program)
    Kind = uint32_t(nextRandom(State) >> 61);
  BranchPredictor Predictor;
  std::vector<uint64_t> WrongByRun;
  for (int Run = 0; Run < 10; ++Run) {
    uint64_t Wrong = 0;
    for (uint32_t Kind : Program) {
      Wrong += !Predictor.predicts(1, 10 + Kind);
      Wrong += !Predictor.predicts(10 + Kind, 1);
    }
    WrongByRun.push_back(Wrong);
  }
  CHECK(WrongByRun[0] > 10); // the first run is learned
  for (int Run = 3; Run < 10; ++Run) {
    INFO("run " << Run);
    CHECK(WrongByRun[Run] == 0);
  }
}
