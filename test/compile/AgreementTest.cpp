// How often `initial` produces the same code as `default` (LLVM's own heuristic), per
// function: every function in its own section, compared byte for byte.
#include "CompileFixture.h"
#include "TestSupport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <cstdlib>
#include <iostream>

using namespace mlgo;
using namespace mlgo::test;

namespace {

struct Agreement {
  int Same = 0, Functions = 0;
  uint64_t Decisions = 0;
  double Seconds[2] = {0, 0}; ///< default, initial
};

Agreement compare(const std::string &Dir, const std::string &Bc) {
  std::map<std::string, std::string> Text[2];
  Agreement A;
  int I = 0;
  for (const char *Name : {"default", "initial"}) {
    std::string Obj = Bc + "." + Name + ".o";
    CompileResult R = requireOk(compileWithPolicy(
        requireOk(builtinPolicy(Name)), optionsFor(Dir, objectArgs(Bc, Obj, true))));
    A.Decisions += R.Decisions;
    A.Seconds[I] = R.Seconds;
    Text[I++] = readSections(Obj, ".text.");
  }
  for (const auto &[Section, Bytes] : Text[0]) {
    ++A.Functions;
    A.Same += Text[1].count(Section) && Text[1].at(Section) == Bytes;
  }
  return A;
}

} // namespace

TEST_CASE("initial reproduces default's code for most functions", "[compile]") {
  std::string Dir = makeTempDir("compile-agreement");
  std::string Workload = std::string(SourceDir) + "/examples/workload";
  struct Source {
    std::string Name, Text, IncludeDir;
  };
  std::vector<Source> Sources = {{"pressure.c", PressureSource, Workload}};
  for (const char *Name : {"compress.c", "hash.c", "matrix.c", "random.c"})
    Sources.push_back({Name, readFile(Workload + "/" + Name), Workload});
  // More C files to measure on, separated by ':' (not needed by the test).
  if (const char *Extra = std::getenv("MLGO_AGREEMENT_SOURCES"))
    for (llvm::StringRef Rest = Extra; !Rest.empty();) {
      auto [Path, Tail] = Rest.split(':');
      Sources.push_back({llvm::sys::path::filename(Path).str(), readFile(Path.str()),
                         llvm::sys::path::parent_path(Path).str()});
      Rest = Tail;
    }
  Agreement Total;
  // As built, then without inlining: more (and smaller) functions.
  for (const char *Flags : {"", "-fno-inline"}) {
    for (const Source &S : Sources) {
      std::string Stem =
          llvm::sys::path::stem(S.Name).str() + (*Flags ? "-noinline" : "");
      Agreement A = compare(
          Dir, compileToBitcode(Dir, Stem, S.Text,
                                std::string(Flags) + " -I" + shellQuote(S.IncludeDir)));
      std::cout << "initial = default: " << Stem << ": " << A.Same << " of "
                << A.Functions << " functions\n";
      Total.Same += A.Same;
      Total.Functions += A.Functions;
      Total.Decisions += A.Decisions;
      for (int P = 0; P < 2; ++P)
        Total.Seconds[P] += A.Seconds[P];
    }
  }
  std::cout << "initial = default: all: " << Total.Same << " of " << Total.Functions
            << " functions\n";
  std::cout << "compile time: default " << Total.Seconds[0] << " s, initial "
            << Total.Seconds[1] << " s for " << Total.Decisions << " decisions\n";
  REQUIRE(Total.Functions >= 20);
  REQUIRE(Total.Same * 2 >= Total.Functions);
}
