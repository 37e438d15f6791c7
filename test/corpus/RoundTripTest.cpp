// The round-trip property on the bundled workload: every extracted module recompiles,
// from its .bc and .cmd alone, to text sections byte-identical to the original object's.
#include "TestSupport.h"
#include "corpus/Corpus.h"
#include "corpus/ExtractCorpus.h"

using namespace mlgo;
using namespace mlgo::test;

TEST_CASE("every module of the example recompiles to identical .text", "[corpus]") {
  std::string Build = makeTempDir("workload");
  CommandResult Built = runShell(std::string(SourceDir) + "/examples/build-workload.sh " +
                                 shellQuote(Build));
  INFO(Built.Output);
  REQUIRE(Built.ExitCode == 0);

  ExtractCorpusOptions Opts;
  Opts.Input = Build + "/compile_commands.json";
  Opts.OutputDir = Build + "/corpus";
  Opts.ShowProgress = false;
  ExtractCorpusResult R = requireOk(runExtractCorpus(Opts));
  REQUIRE(R.Modules.size() == 6);
  Corpus C = requireOk(loadCorpus(Opts.OutputDir));

  for (const std::string &Module : C.Modules) {
    INFO(Module);
    std::map<std::string, std::string> Original = readSections(Build + "/" + Module, ".text");
    REQUIRE(!Original.empty());

    // Exactly as recorded: clang-22 <its .cmd> -x ir <its .bc> -emit-obj, run where the
    // build ran because the recorded command writes its dependency file there.
    std::string Raw = makeTempDir("raw");
    std::string RawCommand = ClangPath;
    for (const std::string &A : splitCommand(readFile(modulePath(C, Module, ".cmd"))))
      RawCommand += " " + shellQuote(A);
    RawCommand += " -x ir " + shellQuote(modulePath(C, Module, ".bc")) + " -emit-obj -o " +
                  shellQuote(Raw + "/out.o");
    CommandResult RawRun = runShell(RawCommand, Build);
    INFO(RawRun.Output);
    REQUIRE(RawRun.ExitCode == 0);
    CHECK(readSections(Raw + "/out.o", ".text") == Original);

    // Through the library's sanitized argv, as later stages compile.
    std::string Command = ClangPath;
    for (const std::string &A : requireOk(buildRecompileCommand(C, Module)))
      Command += " " + shellQuote(A);
    std::string Clean = makeTempDir("clean");
    CommandResult Run = runShell(Command + " -o out.o", Clean);
    INFO(Run.Output);
    REQUIRE(Run.ExitCode == 0);
    CHECK(readSections(Clean + "/out.o", ".text") == Original);
  }
}
