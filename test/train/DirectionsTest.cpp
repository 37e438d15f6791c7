// Perturbation directions: the same from the same (seed, step, direction) in any
// process, different otherwise, of any length; and the antithetic layout of a step.
#include "Directions.h"
#include "StepEvaluations.h"
#include "TestSupport.h"

using namespace mlgo;
using namespace mlgo::test;

TEST_CASE("a direction is a function of seed, step and index alone", "[train]") {
  // Worked out apart from this code: SplitMix64 (whose first output from state 0 is
  // the reference 0xe220a8397b1dcdaf), Box-Muller on (0, 1] uniforms, rounded to float.
  CHECK(perturbationDirection(0, 0, 0, 3) ==
        std::vector<float>{0x1.f47934p+0f, -0x1.6f889ep-2f, 0x1.4f5c22p+0f});
  CHECK(perturbationDirection(7, 2, 1, 3) ==
        std::vector<float>{-0x1.d355fp-3f, -0x1.4e6ac2p+0f, 0x1.19cc3ep-1f});
  // Again, bit for bit: what a resumed run or another rank draws.
  CHECK(perturbationDirection(7, 2, 1, 3) == perturbationDirection(7, 2, 1, 3));
  // Each of the three changes it.
  std::vector<float> Base = perturbationDirection(7, 2, 1, 8);
  CHECK(perturbationDirection(8, 2, 1, 8) != Base);
  CHECK(perturbationDirection(7, 3, 1, 8) != Base);
  CHECK(perturbationDirection(7, 2, 2, 8) != Base);
}

TEST_CASE("a direction has the size asked, a longer one extends a shorter", "[train]") {
  CHECK(perturbationDirection(1, 0, 0, 0).empty());
  std::vector<float> Odd = perturbationDirection(1, 4, 9, 5);
  std::vector<float> Even = perturbationDirection(1, 4, 9, 6);
  REQUIRE(Odd.size() == 5);
  REQUIRE(Even.size() == 6);
  // Normals come in pairs; an odd size keeps the first of the last pair.
  CHECK(std::vector<float>(Even.begin(), Even.begin() + 5) == Odd);
}

TEST_CASE("a step lays out the unperturbed policy, then antithetic pairs", "[train]") {
  std::vector<StepEvaluation> Step = layoutStep(3);
  REQUIRE(Step.size() == 7);
  CHECK(Step[0].Direction == -1);
  CHECK(Step[0].Sign == 0);
  for (int D = 0; D < 3; ++D) {
    // θ + σε_d at 1 + 2d, θ − σε_d right after it.
    CHECK(Step[1 + 2 * D].Direction == D);
    CHECK(Step[1 + 2 * D].Sign == +1);
    CHECK(Step[2 + 2 * D].Direction == D);
    CHECK(Step[2 + 2 * D].Sign == -1);
  }
  for (const StepEvaluation &E : Step) {
    CHECK_FALSE(E.Done);
    CHECK_FALSE(E.Result.has_value());
  }
  CHECK(layoutStep(0).size() == 1);
}
