#include "CorpusBuilds.h"
#include "TestSupport.h"
#include "corpus/Corpus.h"

using namespace mlgo;
using namespace mlgo::test;

namespace {

std::string makeCorpusDir(const std::string &Description,
                          std::initializer_list<const char *> Files) {
  std::string Dir = makeTempDir("corpus");
  writeFile(Dir + "/corpus_description.json", Description);
  for (const char *File : Files)
    writeFile(Dir + "/" + File, std::string("-cc1\0-O2\0", 9));
  return Dir;
}

} // namespace

TEST_CASE("loads an ml-compiler-opt corpus description", "[corpus]") {
  std::string Dir = makeCorpusDir(R"({"has_thinlto": false, "modules": ["a.o", "x/b.o"]})",
                                  {"a.o.bc", "a.o.cmd", "x/b.o.bc", "x/b.o.cmd"});
  Corpus C = requireOk(loadCorpus(Dir));
  CHECK_FALSE(C.HasThinLTO);
  CHECK(C.Modules == std::vector<std::string>{"a.o", "x/b.o"});
  CHECK(requireOk(readModuleCommand(C, "a.o")) == std::vector<std::string>{"-O2"});
  CHECK(requireOk(buildRecompileCommand(C, "x/b.o")) ==
        std::vector<std::string>{"-cc1", "-O2", "-emit-obj", "-x", "ir", Dir + "/x/b.o.bc"});
}

TEST_CASE("ThinLTO modules are recompiled with their index", "[corpus]") {
  std::string Dir = makeCorpusDir(
      R"({"global_command_override": ["-cc1", "-O2", "-emit-obj"], "has_thinlto": true,
          "modules": ["m.o"]})",
      {"m.o.bc", "m.o.thinlto.bc"});
  Corpus C = requireOk(loadCorpus(Dir));
  CHECK(requireOk(buildRecompileCommand(C, "m.o")) ==
        std::vector<std::string>{"-cc1", "-O2", "-emit-obj", "-x", "ir", Dir + "/m.o.bc",
                                 "-fthinlto-index=" + Dir + "/m.o.thinlto.bc", "-mllvm",
                                 "-thinlto-assume-merged"});
}

TEST_CASE("a corpus description that cannot be used is an error naming it", "[corpus]") {
  std::string Missing =
      makeCorpusDir(R"({"has_thinlto": false, "modules": ["a.o"]})", {"a.o.bc"});
  CHECK(requireError(loadCorpus(Missing)) ==
        Missing + "/corpus_description.json: module 'a.o' has no file " + Missing +
            "/a.o.cmd");

  std::string Escape = makeCorpusDir(R"({"has_thinlto": false, "modules": ["../a.o"]})", {});
  CHECK_THAT(requireError(loadCorpus(Escape)),
             Catch::Contains("module name '../a.o' is not a relative path inside the corpus"));

  std::string Placeholder = makeCorpusDir(
      R"({"global_command_override": ["<UNSPECIFIED>"], "has_thinlto": true, "modules": []})",
      {});
  CHECK_THAT(requireError(loadCorpus(Placeholder)),
             Catch::Contains("global_command_override is <UNSPECIFIED>"));

  std::string NoModules = makeCorpusDir(R"({"has_thinlto": false})", {});
  CHECK(requireError(loadCorpus(NoModules)) ==
        NoModules + "/corpus_description.json: missing field 'modules'");

  std::string NotCC1 = makeCorpusDir(R"({"has_thinlto": false, "modules": ["a.o"]})",
                                     {"a.o.bc"});
  writeFile(NotCC1 + "/a.o.cmd", std::string("-O2\0", 4));
  Corpus C = requireOk(loadCorpus(NotCC1));
  CHECK(requireError(readModuleCommand(C, "a.o")) ==
        NotCC1 + "/a.o.cmd: not a cc1 command: it does not start with -cc1");
}

TEST_CASE("splitCommand keeps empty arguments but not the final terminator", "[corpus]") {
  CHECK(splitCommand(std::string("-cc1\0-O2\0", 9)) ==
        std::vector<std::string>{"-cc1", "-O2"});
  CHECK(splitCommand(std::string("-cc1\0\0-O2", 9)) ==
        std::vector<std::string>{"-cc1", "", "-O2"});
  CHECK(splitCommand("").empty());
}
