// subset on a real program: a C++ inline function defined by several modules, static
// functions of the same name in two modules, and modules nothing traced needs.
#include "Subset.h"
#include "TestSupport.h"
#include "corpus/Corpus.h"
#include "corpus/ExtractCorpus.h"
#include "trace/Trace.h"

#include "llvm/Support/FileSystem.h"

using namespace mlgo;
using namespace mlgo::test;

#ifdef MLGO_TEST_VALGRIND_LIB_DIR
namespace {

void writeProgram(const std::string &Dir) {
  writeFile(Dir + "/common.h",
            "#pragma once\n"
            "__attribute__((noinline)) inline int shared(int x) { return x * 7 + 3; }\n");
  for (const char *Name : {"a", "b"})
    writeFile(Dir + "/" + Name + ".cpp",
              std::string("#include \"common.h\"\n"
                          "static __attribute__((noinline)) int helper(int x) { return x ^ ") +
                  (Name[0] == 'a' ? "0x55" : "0x33") + "; }\n" +
                  "int f" + Name + "(int n) { int s = 0; for (int i = 0; i < n; ++i) "
                  "s += helper(i) + shared(i); return s; }\n");
  writeFile(Dir + "/c.cpp", "#include \"common.h\"\nint fc(int n) { return shared(n); }\n");
  writeFile(Dir + "/d.cpp", "int fd(int n) { return n * 2; }\n");
  writeFile(Dir + "/main.cpp",
            "int fa(int); int fb(int);\n"
            "int main(int argc, char **) { return (fa(100 * argc) + fb(100)) == 42; }\n");
}

} // namespace

TEST_CASE("the fewest modules that define every traced function", "[subset]") {
  initializeTargets();
  std::string Dir = makeTempDir("subset");
  writeProgram(Dir);
  CommandResult Built = runShell(
      "mkdir objs && for m in a b c d main; do " + std::string(ClangPath) +
          " -O2 -Xclang -fembed-bitcode=all -fbasic-block-address-map -c $m.cpp -o objs/$m.o"
          " || exit 1; done && " + ClangPath + " objs/*.o -o app",
      Dir);
  INFO(Built.Output);
  REQUIRE(Built.ExitCode == 0);

  ExtractCorpusOptions Extract;
  Extract.Input = Dir + "/objs";
  Extract.OutputDir = Dir + "/corpus";
  Extract.ShowProgress = false;
  requireOk(runExtractCorpus(Extract));
  TraceRecordOptions Record;
  Record.Binary = Dir + "/app";
  Record.Command = {Dir + "/app"};
  Record.Output = Dir + "/app.bbtrace";
  Record.ValgrindLibDir = MLGO_TEST_VALGRIND_LIB_DIR;
  requireOk(runTraceRecord(Record));

  SubsetOptions Opts{Dir + "/corpus", Dir + "/app.bbtrace", Dir + "/subset", false};
  SubsetResult R = requireOk(runSubset(Opts));
  CHECK(R.CorpusModules == 5);
  CHECK(R.Exact);
  // main, fa, fb, both helpers and shared ran; c.cpp also defines shared, d.cpp nothing
  // traced: a, b and main are the minimum.
  CHECK(R.TracedFunctions == 6);
  CHECK(R.Uncovered.empty());
  CHECK(R.CoveredInstructions == R.MappedInstructions);
  REQUIRE(R.Modules.size() == 3);
  CHECK(R.Modules[0].Name == "a.o");
  CHECK(R.Modules[0].Functions ==
        std::vector<std::string>{"_Z2fai", "_Z6sharedi", "_ZL6helperi"});
  CHECK(R.Modules[1].Name == "b.o");
  CHECK(R.Modules[1].Functions == std::vector<std::string>{"_Z2fbi", "_ZL6helperi"});
  CHECK(R.Modules[2].Name == "main.o");
  CHECK(R.Modules[2].Functions == std::vector<std::string>{"main"});

  Corpus Subset = requireOk(loadCorpus(Dir + "/subset"));
  CHECK(Subset.Modules == std::vector<std::string>{"a.o", "b.o", "main.o"});
  CHECK(readFile(Dir + "/subset/a.o.bc") == readFile(Dir + "/corpus/a.o.bc"));
  CHECK(readFile(Dir + "/subset/a.o.cmd") == readFile(Dir + "/corpus/a.o.cmd"));
  CHECK(readFile(Dir + "/subset/subset_functions.json").find("\"method\": \"exact\"") !=
        std::string::npos);

  Opts.Output = Opts.Corpus;
  CHECK(requireError(runSubset(Opts)) == Dir + "/corpus: the output is also the input " +
                                             Dir + "/corpus: refusing to overwrite it");
  Opts.Output = Opts.Corpus + "/sub";
  CHECK(requireError(runSubset(Opts)) == Dir + "/corpus/sub: lies inside the input directory " +
                                             Dir + "/corpus: refusing to write there");
  CHECK(!llvm::sys::fs::exists(Opts.Output));
}
#endif
