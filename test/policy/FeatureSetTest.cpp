#include "FeatureSet.h"
#include "ColumnEncoding.h"
#include "TestSupport.h"

using namespace mlgo;
using namespace mlgo::test;

TEST_CASE("LLVM 22's feature set has 21 features in 3436 bytes", "[policy]") {
  REQUIRE(evictFeatureSpecs().size() == 21);
  REQUIRE(observationByteSize() == 3436);
  REQUIRE(evictFeatureSpecs()[F_use_def_density].Name == "use_def_density");
  REQUIRE(evictFeatureSpecs()[F_progress].Elements == 1);
}

TEST_CASE("The compiler's header is checked feature by feature", "[policy]") {
  requireSuccess(checkFeatureSpecs(featureSpecsToJson(), "header"));
  Json Renamed = featureSpecsToJson();
  Renamed[17]["name"] = "use_def_density_v2";
  REQUIRE(requireError(checkFeatureSpecs(Renamed, "header")) ==
          "header: feature 17 is {\"name\":\"use_def_density_v2\",\"type\":\"float\","
          "\"shape\":[1,33]}, but llvm-22-regalloc-evict expects use_def_density float "
          "[1,33]");
  Json Short = featureSpecsToJson();
  Short.erase(Short.size() - 1);
  REQUIRE(requireError(checkFeatureSpecs(Short, "header")) ==
          "header: 20 features, but llvm-22-regalloc-evict has 21");
}

TEST_CASE("Observations round-trip through bytes and JSON", "[policy]") {
  Observation O;
  O.setInt(F_mask, 3, 1);
  O.setInt(F_max_stage, 32, 6);
  O.setFloat(F_use_def_density, 32, 0.25f);
  O.setFloat(F_progress, 0, 0.5f);
  std::vector<uint8_t> Bytes = O.toBytes();
  REQUIRE(Bytes.size() == 3436);
  // mask is first: column 3's int64 starts at byte 24.
  REQUIRE(Bytes[24] == 1);
  Observation Back = requireOk(Observation::fromBytes(Bytes));
  REQUIRE(Back.toBytes() == Bytes);
  Observation FromJson = requireOk(Observation::fromJSON(O.toJSON(), "obs"));
  REQUIRE(FromJson.toBytes() == Bytes);
  REQUIRE(
      requireError(Observation::fromBytes(llvm::ArrayRef<uint8_t>(Bytes).drop_back())) ==
      "an observation has 3435 bytes, expected 3436");
}

TEST_CASE("A column encodes to named inputs", "[policy]") {
  Observation O;
  O.setInt(F_is_hint, 2, 1);
  O.setInt(F_is_local, 2, 9);
  O.setInt(F_min_stage, 2, 3);
  O.setFloat(F_use_def_density, 2, 0.5f);
  O.setFloat(F_use_def_density, 32, std::nanf(""));
  O.setFloat(F_liverange_size, 2, 7.0f);
  std::vector<float> In(columnInputCount());
  encodeColumn(O, 2, In.data());
  REQUIRE(columnInputCount() == 47);
  REQUIRE(In[columnInputIndex("is_hint")] == 1);
  REQUIRE(In[columnInputIndex("is_local")] == 1); // clamped at 4, divided by 4
  REQUIRE(In[columnInputIndex("min_stage=3")] == 1);
  REQUIRE(In[columnInputIndex("min_stage=0")] == 0);
  REQUIRE(In[columnInputIndex("max_stage=0")] == 1);
  REQUIRE(In[columnInputIndex("use_def_density")] == 0.5f);
  REQUIRE(In[columnInputIndex("candidate.use_def_density")] == 1); // NaN reads as 1
  REQUIRE(In[columnInputIndex("liverange_size")] == 1);
  REQUIRE(In[columnInputIndex("is_candidate")] == 0);
}
