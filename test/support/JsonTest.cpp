#include "TestSupport.h"
#include "support/Error.h"
#include "support/Json.h"

#include <cmath>

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

TEST_CASE("a field read leniently is there as its type or not at all", "[support]") {
  Json Value = {{"name", "x"}, {"count", 3}, {"ratio", 2.5}, {"negative", -1}};
  CHECK(findJsonField<std::string>(Value, "name") == std::optional<std::string>("x"));
  CHECK(findJsonField<int>(Value, "count") == std::optional<int>(3));
  CHECK(findJsonField<double>(Value, "count") == std::optional<double>(3));
  CHECK_FALSE(findJsonField<int>(Value, "missing").has_value());
  CHECK_FALSE(findJsonField<int>(Value, "name").has_value());
  CHECK_FALSE(findJsonField<std::string>(Value, "count").has_value());
  // Numbers that would not fit as they are: as getJsonField refuses them.
  CHECK_FALSE(findJsonField<int>(Value, "ratio").has_value());
  CHECK_FALSE(findJsonField<uint64_t>(Value, "negative").has_value());
  // Not an object at all, or a parse that failed.
  CHECK_FALSE(findJsonField<int>(Json::array({1, 2}), "count").has_value());
  CHECK_FALSE(findJsonField<int>(Json::parse("{", nullptr, false), "count").has_value());
}

TEST_CASE("invalid JSON names the file", "[support]") {
  std::string Dir = makeTempDir("json");
  writeFile(Dir + "/bad.json", "{\"a\": ");
  CHECK_THAT(requireError(readJsonFile(Dir + "/bad.json")),
             Catch::StartsWith(Dir + "/bad.json: invalid JSON"));
  CHECK_THAT(requireError(readJsonFile(Dir + "/none.json")),
             Catch::StartsWith(Dir + "/none.json: cannot read"));
}

TEST_CASE("JSON outputs never hold a NaN or an infinity", "[support]") {
  std::string Dir = makeTempDir("json-finite");
  Json Value = {{"a", 1}, {"list", {1.5, std::nan("")}}};
  CHECK(requireError(writeJsonFile(Dir + "/a.json", Value)) ==
        Dir + "/a.json: not written: list/1 is not a finite number, which JSON cannot hold");
  CHECK_FALSE(fileExists(Dir + "/a.json"));
  CHECK(requireError(serializeJson(Json(-HUGE_VAL), "stdout")) ==
        "stdout: not written: the value is not a finite number, which JSON cannot hold");
  CHECK(requireOk(serializeJson(Json{{"x", 1e308}}, "stdout", -1)) == "{\"x\":1e+308}");
}

TEST_CASE("Numbers must fit the type they are read as", "[support]") {
  Json Value = Json::parse(R"({"f": 1e39, "d": 1e39, "i": 2.5, "u": -1, "big": 4294967296,
                               "fs": [1, 2, 3e38, 4e38], "ok": 7})");
  auto Error = [&](auto Read) { return requireError(std::move(Read)); };
  CHECK(Error(getJsonField<float>(Value, "f", "x")) ==
        "x: field 'f': 1e+39 is not a finite float");
  CHECK(requireOk(getJsonField<double>(Value, "d", "x")) == 1e39);
  CHECK(Error(getJsonField<int>(Value, "i", "x")) ==
        "x: field 'i': 2.5 is not an integer from -2147483648 to 2147483647");
  CHECK(Error(getJsonField<uint64_t>(Value, "u", "x")) ==
        "x: field 'u': -1 is not an integer from 0 to 18446744073709551615");
  CHECK(Error(getJsonField<uint32_t>(Value, "big", "x")) ==
        "x: field 'big': 4294967296 is not an integer from 0 to 4294967295");
  CHECK(requireOk(getJsonField<int64_t>(Value, "big", "x")) == 4294967296);
  CHECK(Error(getJsonField<std::vector<float>>(Value, "fs", "x")) ==
        "x: field 'fs': element 3: 4e+38 is not a finite float");
  CHECK(requireOk(getJsonField<int>(Value, "ok", "x")) == 7);
  CHECK(requireOk(getJsonField<double>(Value, "ok", "x")) == 7.0);
}

TEST_CASE("Only regular files are read as JSON", "[support]") {
  CHECK(requireError(readJsonFile("/dev/zero")) == "/dev/zero: not a regular file");
  std::string Dir = makeTempDir("json-dir");
  CHECK(requireError(readJsonFile(Dir)) == Dir + ": is a directory, not a file");
}
