#include "TestSupport.h"
#include "support/InputFile.h"

#include <sys/stat.h>
#include <unistd.h>

using namespace mlgo;
using namespace mlgo::test;

TEST_CASE("only regular files are read", "[support]") {
  std::string Dir = makeTempDir("inputfile");
  writeFile(Dir + "/f", "12345");
  CHECK(requireOk(regularFileSize(Dir + "/f")) == 5);
  CHECK(requireOk(readRegularFile(Dir + "/f"))->getBuffer() == "12345");
  CHECK(requireError(regularFileSize("/dev/zero")) == "/dev/zero: not a regular file");
  CHECK(requireError(readRegularFile(Dir)) == Dir + ": is a directory, not a file");
  REQUIRE(::mkfifo((Dir + "/fifo").c_str(), 0600) == 0);
  CHECK(requireError(readRegularFile(Dir + "/fifo")) == Dir + "/fifo: not a regular file");
  CHECK(requireError(regularFileSize(Dir + "/missing")).find("cannot read") !=
        std::string::npos);
}

TEST_CASE("an output may not name one of the inputs", "[support]") {
  std::string Dir = makeTempDir("inputfile");
  writeFile(Dir + "/in", "x");
  REQUIRE(::symlink("in", (Dir + "/link").c_str()) == 0);
  REQUIRE(::link((Dir + "/in").c_str(), (Dir + "/hard").c_str()) == 0);
  CHECK(isSameFile(Dir + "/in", Dir + "/./in"));
  CHECK(isSameFile(Dir + "/link", Dir + "/hard"));
  CHECK_FALSE(isSameFile(Dir + "/in", Dir + "/new"));
  requireSuccess(checkOutputIsNoInput(Dir + "/new", {Dir + "/in"}));
  CHECK(requireError(checkOutputIsNoInput(Dir + "/hard", {"", Dir + "/in"})) ==
        Dir + "/hard: the output is also the input " + Dir +
            "/in: refusing to overwrite it");
}

TEST_CASE("an output may not lie inside an input directory", "[support]") {
  std::string Dir = makeTempDir("inputdir");
  writeFile(Dir + "/objs/v/old/a.o", "x");
  writeFile(Dir + "/other/b", "x");
  REQUIRE(::symlink("objs", (Dir + "/alias").c_str()) == 0);
  for (std::string Output : {Dir + "/objs/a.o", Dir + "/objs/new.md", Dir + "/objs/v/old/a.o",
                             Dir + "/objs/missing/dir/r.md", Dir + "/alias/r.md"})
    CHECK(requireError(checkOutputOutsideInputs(Output, {Dir + "/other/b", Dir + "/objs"})) ==
          Output + ": lies inside the input directory " + Dir +
              "/objs: refusing to write there");
  requireSuccess(checkOutputOutsideInputs(Dir + "/r.md", {Dir + "/objs", Dir + "/other/b"}));
  requireSuccess(checkOutputOutsideInputs(Dir + "/objs.md", {Dir + "/objs"}));
  requireSuccess(checkOutputOutsideInputs(Dir + "/other/r.md", {Dir + "/objs"}));
}
