#include "TestSupport.h"
#include "support/Error.h"
#include "support/Json.h"

using namespace mlgo;
using namespace mlgo::test;

TEST_CASE("JSON files round-trip and fields are checked", "[support]") {
  std::string Dir = makeTempDir("json");
  std::string Path = Dir + "/a.json";
  requireSuccess(writeJsonFile(Path, Json{{"name", "x"}, {"count", 3}}));
  Json Value = requireOk(readJsonFile(Path));
  CHECK(requireOk(getJsonField<std::string>(Value, "name", Path)) == "x");
  CHECK(requireOk(getJsonField<int>(Value, "count", Path)) == 3);
  CHECK(requireError(getJsonField<int>(Value, "missing", Path)) ==
        Path + ": missing field 'missing'");
  CHECK_THAT(requireError(getJsonField<int>(Value, "name", Path)),
             Catch::StartsWith(Path + ": field 'name' has the wrong type"));
  CHECK_FALSE(requireOk(getOptionalJsonField<int>(Value, "missing", Path)).has_value());
}

TEST_CASE("invalid JSON names the file", "[support]") {
  std::string Dir = makeTempDir("json");
  writeFile(Dir + "/bad.json", "{\"a\": ");
  CHECK_THAT(requireError(readJsonFile(Dir + "/bad.json")),
             Catch::StartsWith(Dir + "/bad.json: invalid JSON"));
  CHECK_THAT(requireError(readJsonFile(Dir + "/none.json")),
             Catch::StartsWith(Dir + "/none.json: cannot read"));
}
