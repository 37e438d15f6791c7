#include "Adam.h"
#include "TestSupport.h"

using namespace mlgo;
using namespace mlgo::test;

TEST_CASE("Adam climbs the gradient by about its step size", "[train]") {
  Adam A(2, 0.5);
  std::vector<float> P = {1, 1};
  REQUIRE_FALSE(A.step(P, {2.0, -3.0}).has_value());
  // The first step is ±step size along each coordinate's sign.
  CHECK(P[0] == Approx(1.5));
  CHECK(P[1] == Approx(0.5));
  CHECK(A.steps() == 1);
}

TEST_CASE("An Adam step beyond the finite floats changes nothing", "[train]") {
  Adam A(3, 1e39);
  std::vector<float> P = {1, 2, 3};
  Json Before = A.toJSON();
  REQUIRE(A.step(P, {0.0, 1.0, 0.0}) == std::optional<size_t>(1));
  CHECK(P == std::vector<float>{1, 2, 3});
  CHECK(A.toJSON() == Before);
}

TEST_CASE("Adam's checkpointed settings must be in range", "[train]") {
  Json Good = Adam(2, 0.005).toJSON();
  REQUIRE(requireOk(Adam::fromJSON(Good, "c.json")).size() == 2);
  auto Error = [&](const char *Key, Json Value) {
    Json Bad = Good;
    Bad[Key] = std::move(Value);
    return requireError(Adam::fromJSON(Bad, "c.json"));
  };
  CHECK(Error("beta1", 1.0) == "c.json: the optimizer's beta1 is 1, outside [0, 1)");
  CHECK(Error("beta2", -0.5) == "c.json: the optimizer's beta2 is -0.5, outside [0, 1)");
  CHECK(Error("step_size", 0.0) == "c.json: the optimizer's step size 0 is not positive");
  CHECK(Error("epsilon", -1e-8) == "c.json: the optimizer's epsilon -1e-08 is not positive");
  CHECK(Error("second", {0.0, -1.0}) == "c.json: the optimizer's second moment -1 is negative");
  CHECK(Error("first", {0.0}) == "c.json: the optimizer's moments differ in size");
}
