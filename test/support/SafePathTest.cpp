#include "TestSupport.h"
#include "support/SafePath.h"

using namespace mlgo;

TEST_CASE("contained relative paths reject escapes", "[support]") {
  CHECK(isContainedRelativePath("a/b.o"));
  CHECK(isContainedRelativePath("a..b/c.o"));
  CHECK_FALSE(isContainedRelativePath(""));
  CHECK_FALSE(isContainedRelativePath("/etc/passwd"));
  CHECK_FALSE(isContainedRelativePath("a/../../b.o"));
  CHECK_FALSE(isContainedRelativePath(".."));
}

TEST_CASE("untrusted object paths are confined to the output", "[support]") {
  CHECK(containedRelativePath("src/a.o", "/build") == "src/a.o");
  CHECK(containedRelativePath("./src/./a.o", "/build") == "src/a.o");
  CHECK(containedRelativePath("/build/src/a.o", "/build") == "src/a.o");
  CHECK(containedRelativePath("/buildx/a.o", "/build") == "buildx/a.o");
  CHECK(containedRelativePath("/tmp/a.o", "/build") == "tmp/a.o");
  CHECK(containedRelativePath("../../etc/a.o", "/build") == "etc/a.o");
  CHECK(containedRelativePath("x/../../a.o", "/build") == "a.o");
}
