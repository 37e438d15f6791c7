#include "TestSupport.h"
#include "train/TrainOptions.h"
#include "train/report/TrainReports.h"

using namespace mlgo;

TEST_CASE("The time left is the steps left without a time budget", "[train]") {
  CHECK(etaSeconds(30, 4, std::nullopt) == 120);
  CHECK(etaSeconds(30, 0, std::nullopt) == 0);
}

TEST_CASE("With a time budget, only the steps that start before it is spent", "[train]") {
  // 100 s of budget left, 30 s a step: steps start at 0, 30, 60 and 90 s.
  CHECK(etaSeconds(30, 1000, 100.0) == 120);
  // Fewer steps left than the budget holds: the steps end the run.
  CHECK(etaSeconds(30, 2, 100.0) == 60);
  // A spent budget starts no step; unlimited iterations are bounded by the budget alone.
  CHECK(etaSeconds(30, 5, -10.0) == 0);
  CHECK(etaSeconds(30, SearchOptions::NoIterationLimit, 60.0) == 60);
}

TEST_CASE("A step's line counts its steps, without a limit too", "[train]") {
  Json Record = {{"step", 2},           {"unperturbed_speedup", 0.0012},
                 {"reward_min", -0.01}, {"reward_max", 0.02},
                 {"best_speedup", 0.02}, {"failures", 0},
                 {"skipped", false},    {"seconds", 12.0},
                 {"compile_seconds", 3.0}, {"replay_seconds", 9.0}};
  CHECK(stepLine(Record, 10, 84) ==
        "step 3/10: unperturbed +0.120%, perturbations -1.000% .. +2.000%, best +2.000%, "
        "0 failed, 12.0 s (compile 3.0, replay 9.0), eta 84 s");
  CHECK(stepLine(Record, SearchOptions::NoIterationLimit, 84).rfind("step 3: unperturbed", 0) ==
        0);
}
