#include "Policy.h"
#include "ColumnEncoding.h"
#include "TestSupport.h"

#include <cmath>
#include <limits>
#include <random>

using namespace mlgo;
using namespace mlgo::test;

namespace {

/// An observation with random values in every feature and a random mask that keeps at
/// least one column legal (LLVM never asks otherwise).
Observation randomObservation(std::mt19937 &Rng) {
  std::uniform_real_distribution<float> Unit(0, 1);
  Observation O;
  for (int C = 0; C < NumColumns; ++C) {
    O.setInt(F_mask, C, Unit(Rng) < 0.3);
    O.setInt(F_is_free, C, Unit(Rng) < 0.1);
    O.setInt(F_is_hint, C, Unit(Rng) < 0.1);
    O.setInt(F_is_local, C, int64_t(Unit(Rng) * 5));
    O.setInt(F_max_stage, C, int64_t(Unit(Rng) * 7));
    O.setInt(F_min_stage, C, int64_t(Unit(Rng) * 7));
    for (FeatureId F : floatFeatureIds())
      O.setFloat(F, C, Unit(Rng));
  }
  O.setInt(F_mask, int(Unit(Rng) * NumColumns) % NumColumns, 1);
  O.setFloat(F_progress, 0, Unit(Rng));
  return O;
}

Policy randomPolicy(std::mt19937 &Rng, float Sigma) {
  std::normal_distribution<float> Normal(0, Sigma);
  Network Net(columnInputCount(), Policy::defaultHidden());
  for (float &P : Net.parameters())
    P = Normal(Rng);
  return Policy::makeNetwork("random", std::move(Net));
}

} // namespace

TEST_CASE("A policy never chooses a masked column", "[policy]") {
  std::mt19937 Rng(42);
  int Decisions = 0;
  for (int P = 0; P < 50; ++P) {
    Policy Pol = randomPolicy(Rng, P % 2 ? 0.5f : 50.0f);
    for (int I = 0; I < 200; ++I, ++Decisions) {
      Observation O = randomObservation(Rng);
      int64_t Column = Pol.decide(O);
      REQUIRE(Column >= 0);
      REQUIRE(Column < NumColumns);
      REQUIRE(O.legal(Column));
    }
  }
  REQUIRE(Decisions == 10000);
}

TEST_CASE("A NaN score still gives a legal column", "[policy]") {
  Network Net(columnInputCount(), Policy::defaultHidden());
  Net.parameters().back() = std::nanf(""); // the output bias
  Policy Pol = Policy::makeNetwork("nan", std::move(Net));
  Observation O;
  O.setInt(F_mask, 5, 1);
  O.setInt(F_mask, 9, 1);
  REQUIRE(Pol.decide(O) == 5);
}

TEST_CASE("The parameter layout is weights row-major, then biases, per layer",
          "[policy]") {
  Network Net(3, {2});
  REQUIRE(Net.parameters().size() == Network::parameterCount(3, {2}));
  REQUIRE(Net.parameters().size() == 3 * 2 + 2 + 2 + 1);
  REQUIRE(Net.weightOffset(1) == 8);
  REQUIRE(Net.biasOffset(1) == 10);
  // hidden = relu(W x + b), out = v . hidden + c
  Net.parameters() = {1, 0, 0, /*row 1*/ 0, -1, 0, /*b*/ 0.5f, 0, /*v*/ 2, 3, /*c*/ 1};
  std::vector<float> Scratch;
  float X[] = {1, -2, 7};
  REQUIRE(Net.score(X, Scratch) == 2 * 1.5f + 3 * 2 + 1);
}

TEST_CASE("Policy files round-trip exactly", "[policy]") {
  std::mt19937 Rng(7);
  Policy Pol = randomPolicy(Rng, 1.0f);
  std::string Dir = makeTempDir("policy-roundtrip");
  std::string Path = Dir + "/random.json";
  requireSuccess(savePolicy(Pol, Path));
  Policy Back = requireOk(loadPolicy(Path));
  REQUIRE(Back.name() == "random");
  REQUIRE(Back.usesAdvisor());
  REQUIRE(Back.network().hidden() == Policy::defaultHidden());
  REQUIRE(Back.network().parameters() == Pol.network().parameters());
  for (int I = 0; I < 100; ++I) {
    Observation O = randomObservation(Rng);
    REQUIRE(Back.decide(O) == Pol.decide(O));
  }
  requireSuccess(savePolicy(Policy::makeDefault(), Dir + "/default.json"));
  REQUIRE(!requireOk(loadPolicy(Dir + "/default.json")).usesAdvisor());
}

TEST_CASE("Unknown feature sets and mismatched files are rejected", "[policy]") {
  std::string Dir = makeTempDir("policy-reject");
  Json Good = requireOk(builtinPolicy("initial")).toJSON();
  auto Check = [&](Json Value, const std::string &Message) {
    std::string Path = Dir + "/p.json";
    requireSuccess(writeJsonFile(Path, Value));
    REQUIRE(requireError(loadPolicy(Path)) == Path + ": " + Message);
  };
  Json Set = Good;
  Set["feature_set"]["name"] = "llvm-18-regalloc-evict";
  Check(Set, "unknown feature set 'llvm-18-regalloc-evict' (this mlgo-ra knows only "
             "'llvm-22-regalloc-evict')");
  Json Features = Good;
  Features["feature_set"]["features"][20]["shape"] = Json::array({1, 33});
  Check(Features, "feature 20 is {\"name\":\"progress\",\"type\":\"float\",\"shape\":"
                  "[1,33]}, but llvm-22-regalloc-evict expects progress float [1]");
  Json Params = Good;
  Params["parameters"].erase(0);
  Check(Params, "2080 parameters, but inputs 47 and hidden [32,16] need 2081");
  Json Encoding = Good;
  Encoding["encoding"]["name"] = "columns-v9";
  Check(Encoding, "unknown encoding 'columns-v9' (this mlgo-ra knows only 'columns-v1')");
  REQUIRE(requireError(loadPolicy(Dir + "/missing.json")).find("missing.json") !=
          std::string::npos);
}

TEST_CASE("Built-in policies", "[policy]") {
  REQUIRE(!requireOk(loadPolicy("default")).usesAdvisor());
  REQUIRE(requireOk(loadPolicy("initial")).usesAdvisor());
  REQUIRE(requireOk(loadPolicy("poor")).usesAdvisor());
  REQUIRE(requireError(builtinPolicy("best")) ==
          "best: no built-in policy of this name (known: default, initial, poor)");
}

TEST_CASE("A policy file's network is bounded by the parameters it holds", "[policy]") {
  std::string Dir = makeTempDir("policy-shape");
  Json Good = requireOk(builtinPolicy("initial")).toJSON();
  auto Check = [&](const Json &Value, const std::string &Message) {
    std::string Path = Dir + "/p.json";
    requireSuccess(writeJsonFile(Path, Value));
    REQUIRE(requireError(loadPolicy(Path)) == Path + ": " + Message);
  };
  // 64 layers of 4096 would be 4 GB of floats; the file holds 2081 numbers.
  Json Deep = Good;
  Deep["architecture"]["hidden"] = std::vector<int>(64, 4096);
  Check(Deep, "64 hidden layers (at most 16)");
  Json Wide = Good;
  Wide["architecture"]["hidden"] = std::vector<int>(16, 4096);
  Check(Wide, "inputs 47 and hidden [4096,4096,4096,4096,4096,4096,4096,4096,4096,4096,"
              "4096,4096,4096,4096,4096,4096] need 251920385 parameters (at most "
              "16777216)");
  Json Big = Good;
  Big["architecture"]["hidden"] = {4096, 8};
  Check(Big, "2081 parameters, but inputs 47 and hidden [4096,8] need 229393");
  Json Huge = Good;
  Huge["architecture"]["hidden"] = {32, 1e12};
  Check(Huge, "field 'hidden': element 1: 1000000000000.0 is not an integer from "
              "-2147483648 to 2147483647");
  Json NotArray = Good;
  NotArray["parameters"] = "many";
  Check(NotArray, "field 'parameters' is not an array");
}

TEST_CASE("A policy file's weights must be finite floats", "[policy]") {
  std::string Dir = makeTempDir("policy-finite");
  Json Good = requireOk(builtinPolicy("initial")).toJSON();
  std::string Path = Dir + "/p.json";
  // A finite double, but an infinity as a float: export would write null.
  Json Large = Good;
  Large["parameters"][3] = 1e39;
  requireSuccess(writeJsonFile(Path, Large));
  REQUIRE(requireError(loadPolicy(Path)) ==
          Path + ": field 'parameters': element 3: 1e+39 is not a finite float");
  // The largest float is a weight.
  Json Largest = Good;
  Largest["parameters"][3] = double(std::numeric_limits<float>::max());
  requireSuccess(writeJsonFile(Path, Largest));
  REQUIRE(requireOk(loadPolicy(Path)).network().parameters()[3] ==
          std::numeric_limits<float>::max());
}

TEST_CASE("A policy with a non-finite weight is not written", "[policy]") {
  std::string Dir = makeTempDir("policy-nan");
  Policy P = requireOk(builtinPolicy("initial"));
  P.parameters()[5] = std::numeric_limits<float>::infinity();
  REQUIRE(requireError(savePolicy(P, Dir + "/p.json")) ==
          Dir + "/p.json: not written: parameters/5 is not a finite number, which JSON "
                "cannot hold");
  REQUIRE(!fileExists(Dir + "/p.json"));
}

TEST_CASE("A policy file with several problems is one error", "[policy]") {
  std::string Dir = makeTempDir("policy-one-error");
  Json Bare = requireOk(builtinPolicy("initial")).toJSON();
  Bare.erase("name");
  Bare.erase("kind");
  std::string Path = Dir + "/p.json";
  requireSuccess(writeJsonFile(Path, Bare));
  REQUIRE(requireError(loadPolicy(Path)) == Path + ": missing field 'name'");
  Json NoArchitecture = requireOk(builtinPolicy("initial")).toJSON();
  NoArchitecture["architecture"] = Json::object();
  requireSuccess(writeJsonFile(Path, NoArchitecture));
  REQUIRE(requireError(loadPolicy(Path)) == Path + ": missing field 'inputs'");
}
