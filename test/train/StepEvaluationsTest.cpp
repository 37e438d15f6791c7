// A step evaluation as it travels between MPI ranks: read back exactly as written,
// and a malformed one refused with what is wrong with it. The best of a step's
// evaluations and the parameters it evaluated.
#include "StepEvaluations.h"
#include "TestSupport.h"

using namespace mlgo;
using namespace mlgo::test;

namespace {

Json evaluated() {
  return Json::parse(R"({"direction": 3, "sign": -1, "done": true,
    "result": {"speedup": 0.015625, "cycles": 123456789012, "decisions": 42,
               "compile_seconds": 1.5, "replay_seconds": 0.25,
               "compile_reused": true, "replay_reused": false}})");
}

std::string refused(const Json &Value) {
  return requireError(StepEvaluation::fromJSON(Value));
}

} // namespace

TEST_CASE("a step evaluation is read exactly as written", "[train]") {
  StepEvaluation E = requireOk(StepEvaluation::fromJSON(evaluated()));
  CHECK(E.Direction == 3);
  CHECK(E.Sign == -1);
  CHECK(E.Done);
  REQUIRE(E.Result.has_value());
  CHECK(E.Result->Speedup == 0.015625);
  CHECK(E.Result->Cycles == 123456789012u);
  CHECK(E.Result->Decisions == 42);
  CHECK(E.Result->CompileSeconds == 1.5);
  CHECK(E.Result->ReplaySeconds == 0.25);
  CHECK(E.Result->CompileReused);
  CHECK_FALSE(E.Result->ReplayReused);
  CHECK(E.Failure.empty());
  CHECK(E.toJSON() == evaluated());

  Json Failed = {{"direction", -1}, {"sign", 0}, {"done", true}, {"failure", "x.c: boom"}};
  StepEvaluation F = requireOk(StepEvaluation::fromJSON(Failed));
  CHECK(F.Direction == -1);
  CHECK_FALSE(F.Result.has_value());
  CHECK(F.Failure == "x.c: boom");
  CHECK(F.toJSON() == Failed);
}

TEST_CASE("a step evaluation on several jobs carries each job's speedup", "[train]") {
  Json Jobs = evaluated();
  Jobs["result"]["job_speedups"] = {0.03125, -0.0001220703125};
  StepEvaluation E = requireOk(StepEvaluation::fromJSON(Jobs));
  REQUIRE(E.Result.has_value());
  CHECK(E.Result->JobSpeedups == std::vector<double>{0.03125, -0.0001220703125});
  CHECK(E.toJSON() == Jobs);
  // A run without jobs sends none.
  CHECK(requireOk(StepEvaluation::fromJSON(evaluated())).Result->JobSpeedups.empty());
  Json Bad = Jobs;
  Bad["result"]["job_speedups"] = {0.5, "x"};
  CHECK_THAT(refused(Bad), Catch::StartsWith("a rank sent a malformed evaluation: field "
                                             "'job_speedups' has the wrong type: "));
}

TEST_CASE("a malformed step evaluation is refused with what is wrong", "[train]") {
  const std::string Prefix = "a rank sent a malformed evaluation: ";
  CHECK(refused(Json::array()) == Prefix + "expected a JSON object");
  Json NoSign = evaluated();
  NoSign.erase("sign");
  CHECK(refused(NoSign) == Prefix + "missing field 'sign'");
  Json NoCycles = evaluated();
  NoCycles["result"].erase("cycles");
  CHECK(refused(NoCycles) == Prefix + "missing field 'cycles'");
  Json NoFailure = evaluated();
  NoFailure.erase("result");
  CHECK(refused(NoFailure) == Prefix + "missing field 'failure'");
  Json Fraction = evaluated();
  Fraction["direction"] = 2.5;
  CHECK(refused(Fraction) ==
        Prefix + "field 'direction': 2.5 is not an integer from -2147483648 to 2147483647");
  Json Negative = evaluated();
  Negative["result"]["cycles"] = -1;
  CHECK(refused(Negative) ==
        Prefix + "field 'cycles': -1 is not an integer from 0 to 18446744073709551615");
  Json WrongType = evaluated();
  WrongType["done"] = "yes";
  CHECK_THAT(refused(WrongType),
             Catch::StartsWith(Prefix + "field 'done' has the wrong type: "));
  Json NotAnObject = evaluated();
  NotAnObject["result"] = 7;
  CHECK(refused(NotAnObject) == Prefix + "expected a JSON object");
}

TEST_CASE("a step's best evaluation is its highest speedup, the earliest of equals",
          "[train]") {
  std::vector<StepEvaluation> Step = layoutStep(2);
  CHECK_FALSE(bestEvaluation(Step).has_value()); // nothing succeeded
  auto succeed = [&](size_t I, double Speedup) {
    Step[I].Done = true;
    Step[I].Result = Evaluation();
    Step[I].Result->Speedup = Speedup;
  };
  succeed(2, -0.01);
  CHECK(bestEvaluation(Step) == std::optional<size_t>(2));
  succeed(0, 0.001);
  succeed(3, 0.004);
  succeed(4, 0.004);
  CHECK(bestEvaluation(Step) == std::optional<size_t>(3));
  succeed(0, 0.004); // the unperturbed policy comes first among equals
  CHECK(bestEvaluation(Step) == std::optional<size_t>(0));
}

TEST_CASE("an evaluation's parameters are the policy moved by sign times sigma along its "
          "direction", "[train]") {
  std::vector<StepEvaluation> Step = layoutStep(2);
  std::vector<float> Theta = {1.0f, -2.0f, 0.5f};
  std::vector<std::vector<float>> Directions = {{1.0f, 0.0f, -1.0f}, {0.5f, 2.0f, 4.0f}};
  CHECK(evaluatedParameters(Step[0], Theta, Directions, 0.25) == Theta);
  CHECK(evaluatedParameters(Step[3], Theta, Directions, 0.25) ==
        std::vector<float>{1.125f, -1.5f, 1.5f});
  CHECK(evaluatedParameters(Step[4], Theta, Directions, 0.25) ==
        std::vector<float>{0.875f, -2.5f, -0.5f});
}
