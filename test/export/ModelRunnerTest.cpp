// The exported llvm::RegAllocEvictModel, compiled like an LLVM build compiles it and run
// by LLVM 22's own ReleaseModeModelRunner, decides exactly as Policy::decide on feature
// vectors recorded from real compiles and on edge cases (ties, NaN, infinities).
#include "CompileFixture.h"
#include "Export.h"
#include "TestSupport.h"
#include "policy/Policy.h"

#include "llvm/Support/Path.h"
#include <cmath>
#include <iostream>
#include <limits>
#include <random>
#include <set>
#include <sstream>

using namespace mlgo;
using namespace mlgo::test;

namespace {

/// Observations recorded while compiling sample C files with \p P (as built, and
/// without inlining for more, smaller functions).
std::vector<Observation> record(const std::string &Dir, const Policy &P) {
  std::string Workload = std::string(SourceDir) + "/examples/workload";
  std::vector<std::pair<std::string, std::string>> Sources = {{"pressure", PressureSource}};
  for (const char *Name : {"compress", "hash", "matrix", "random"})
    Sources.push_back({Name, readFile(Workload + "/" + Name + ".c")});
  std::vector<Observation> Out;
  for (const char *Flags : {"", "-fno-inline"})
    for (const auto &[Name, Text] : Sources) {
      std::string Stem = P.name() + "-" + Name + (*Flags ? "-noinline" : "");
      std::string Bc = compileToBitcode(Dir, Stem, Text,
                                        std::string(Flags) + " -I" + shellQuote(Workload));
      CompileOptions O = optionsFor(Dir, objectArgs(Bc, Bc + ".o"));
      O.RecordDecisions = Bc + ".decisions";
      requireOk(compileWithPolicy(P, O));
      for (RecordedDecision &D : requireOk(readDecisionLog(O.RecordDecisions)))
        Out.push_back(std::move(D.Features));
    }
  return Out;
}

/// Observations LLVM rarely or never sends, on which the tie and NaN rules and the
/// clamping of the encoding must still agree.
std::vector<Observation> edgeCases() {
  const float Inf = std::numeric_limits<float>::infinity(), NaN = std::nanf("");
  std::vector<Observation> Out;
  auto Add = [&](auto Edit) {
    Observation O;
    for (int C = 0; C < NumColumns; ++C)
      O.setInt(F_mask, C, 1);
    Edit(O);
    Out.push_back(O);
  };
  Add([](Observation &) {}); // all columns alike: the first one wins
  Add([](Observation &O) {   // none legal: evict nothing
    for (int C = 0; C < NumColumns; ++C)
      O.setInt(F_mask, C, 0);
  });
  for (float Progress : {NaN, Inf, -Inf, 1e30f, -0.0f})
    Add([&](Observation &O) { O.setFloat(F_progress, 0, Progress); });
  for (float X : {NaN, Inf, -Inf, -0.0f, 1e-40f, 1e30f, -1e30f, 0.5f})
    for (FeatureId F : {F_use_def_density, F_nr_broken_hints, F_liverange_size})
      for (int C : {0, 7, CandidateColumn})
        Add([&](Observation &O) { O.setFloat(F, C, X); });
  for (int64_t V : {int64_t(-3), int64_t(2), int64_t(99), std::numeric_limits<int64_t>::min(),
                    std::numeric_limits<int64_t>::max()})
    for (FeatureId F : {F_mask, F_is_free, F_is_hint, F_is_local, F_max_stage, F_min_stage})
      Add([&](Observation &O) {
        O.setInt(F_mask, 3, 0);
        O.setInt(F, 3, V);
        O.setInt(F, 5, V);
      });
  // Random decisions over wide ranges, with random masks.
  std::mt19937 Rng(7);
  std::uniform_real_distribution<float> Unit(0, 1), Wide(-2, 3);
  for (int I = 0; I < 300; ++I)
    Add([&](Observation &O) {
      for (int C = 0; C < NumColumns; ++C) {
        O.setInt(F_mask, C, Unit(Rng) < 0.3);
        for (FeatureId F : {F_is_free, F_is_hint, F_is_local, F_max_stage, F_min_stage})
          O.setInt(F, C, int64_t(Wide(Rng) * 3));
        for (int F = 0; F < NumFeatures; ++F)
          if (evictFeatureSpecs()[F].Type == TensorType::Float && F != F_progress)
            O.setFloat(FeatureId(F), C, Wide(Rng));
      }
      O.setFloat(F_progress, 0, Unit(Rng));
    });
  return Out;
}

/// \p Base with Gaussian noise on every parameter: a policy that decides differently.
Policy perturbed(const Policy &Base, float Sigma) {
  Policy P = Base;
  P.setName(Base.name() + "-perturbed");
  std::mt19937 Rng(2024);
  std::normal_distribution<float> Noise(0, Sigma);
  for (float &X : P.parameters())
    X += Noise(Rng);
  return P;
}

/// Exports \p P through a policy file, as a user would; returns the directory.
std::string exportCpp(const std::string &Dir, const Policy &P) {
  std::string File = Dir + "/" + P.name() + ".json", Out = Dir + "/" + P.name();
  requireSuccess(savePolicy(P, File));
  requireOk(runExport({File, ExportFormat::Cpp, Out}));
  return Out;
}

/// FeatureSpecs.inc for ModelRunnerDriver.cpp, from mlgo-ra's feature set.
std::string writeFeatureSpecs(const std::string &Dir) {
  std::string Text;
  for (const Json &F : featureSpecsToJson()) {
    std::string Shape;
    for (const Json &D : F["shape"])
      Shape += ", " + std::to_string(D.get<int>());
    Text += "M(" + F["type"].get<std::string>() + ", \"" + F["name"].get<std::string>() +
            "\"" + Shape + ")\n";
  }
  writeFile(Dir + "/specs/FeatureSpecs.inc", Text);
  return Dir + "/specs";
}

std::string writeObservations(const std::string &Path, const std::vector<Observation> &Obs) {
  std::string Bytes;
  for (const Observation &O : Obs) {
    std::vector<uint8_t> B = O.toBytes();
    Bytes.append(B.begin(), B.end());
  }
  writeFile(Path, Bytes);
  return Path;
}

std::string run(const std::string &Script) {
  CommandResult R = runShell(Script);
  INFO(Script << "\n" << R.Output.substr(0, 4000));
  REQUIRE(R.ExitCode == 0);
  return R.Output;
}

/// Every decision of \p Driver on \p Obs equals Policy::decide.
void requireSameDecisions(const std::string &Driver, const std::string &ObsFile,
                          const Policy &P, const std::vector<Observation> &Obs) {
  std::istringstream Lines(run(shellQuote(Driver) + " " + shellQuote(ObsFile)));
  std::vector<int64_t> Got;
  for (int64_t D; Lines >> D;)
    Got.push_back(D);
  REQUIRE(Got.size() == Obs.size());
  size_t Differ = 0;
  for (size_t I = 0; I < Obs.size(); ++I)
    if (Got[I] != P.decide(Obs[I]) && Differ++ == 0)
      UNSCOPED_INFO("first difference: observation " << I << ": model " << Got[I]
                                                     << ", mlgo-ra " << P.decide(Obs[I]));
  REQUIRE(Differ == 0);
}

struct Recording {
  std::vector<Observation> Obs;
  size_t Recorded = 0;
  std::string File;
};

/// What both test cases feed: decisions recorded with \p Varied (which decides unlike
/// greedy), initial and poor, then the edge cases.
Recording recordAll(const std::string &Dir, const Policy &Varied) {
  Recording R;
  R.Obs = record(Dir, Varied);
  for (const char *Name : {"initial", "poor"})
    for (Observation &O : record(Dir, requireOk(builtinPolicy(Name))))
      R.Obs.push_back(std::move(O));
  R.Recorded = R.Obs.size();
  std::set<int64_t> Columns;
  for (const Observation &O : R.Obs)
    Columns.insert(Varied.decide(O));
  std::cout << "export: " << R.Recorded << " recorded feature vectors, " << Columns.size()
            << " distinct decisions\n";
  REQUIRE(R.Recorded >= 1000);
  REQUIRE(Columns.size() >= 8);
  for (Observation &O : edgeCases())
    R.Obs.push_back(std::move(O));
  R.File = writeObservations(Dir + "/observations.bin", R.Obs);
  return R;
}

/// The README's commands: its EXPORT= line, its compile command (step 1) and the
/// -D flags of its cmake command (step 2).
struct ReadmeSteps {
  std::string Export, Compile, Flags;
};

ReadmeSteps readReadme(const std::string &Path) {
  ReadmeSteps S;
  std::istringstream In(readFile(Path));
  for (std::string Line; std::getline(In, Line);) {
    llvm::StringRef L = llvm::StringRef(Line).trim();
    if (L.starts_with("EXPORT="))
      S.Export = L.str();
    else if (L.starts_with("c++ "))
      S.Compile = L.str();
    else if (L.starts_with("-DTENSORFLOW_AOT_PATH=") || L.starts_with("-DLLVM_OVERRIDE_") ||
             L.starts_with("-DLLVM_INLINER_MODEL_PATH="))
      S.Flags += " " + L.rtrim(" \\").str();
  }
  REQUIRE(!S.Export.empty());
  REQUIRE(!S.Compile.empty());
  return S;
}

bool hostHasFma() {
#if defined(__x86_64__)
  return __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

} // namespace

TEST_CASE("The exported model built as the README says decides as Policy::decide",
          "[export]") {
  std::string Dir = makeTempDir("export-llvm-build");
  Policy Initial = requireOk(builtinPolicy("initial"));
  Recording R = recordAll(Dir, perturbed(Initial, 0.5f));
  std::string Out = exportCpp(Dir, Initial);
  ReadmeSteps Steps = readReadme(Out + "/README.md");
  // Step 1 compiles with `c++`, the compiler that builds LLVM; then LLVM's own
  // TensorFlowCompile.cmake takes the files through the README's flags.
  std::string Build = Dir + "/llvm-build";
  run("set -e; " + Steps.Export + "; " + Steps.Compile + "; " + MLGO_TEST_CMAKE +
      " -G Ninja -S " + shellQuote(std::string(SourceDir) + "/test/export/llvm_build") +
      " -B " + shellQuote(Build) + " -DCMAKE_MAKE_PROGRAM=" + MLGO_TEST_MAKE_PROGRAM +
      " -DLLVM_DIR=" + MLGO_TEST_LLVM_DIR + " -DDRIVER_SOURCE=" +
      shellQuote(std::string(SourceDir) + "/test/export/ModelRunnerDriver.cpp") +
      " -DFEATURE_SPECS_DIR=" + shellQuote(writeFeatureSpecs(Dir)) + Steps.Flags +
      "; " + MLGO_TEST_CMAKE + " --build " + shellQuote(Build));
  requireSameDecisions(Build + "/driver", R.File, Initial, R.Obs);
}

TEST_CASE("The exported model decides as Policy::decide with clang and GCC, FMA or not",
          "[export]") {
  std::string Dir = makeTempDir("export-compilers");
  Policy Initial = requireOk(builtinPolicy("initial"));
  Policy Varied = perturbed(Initial, 0.5f);
  Recording R = recordAll(Dir, Varied);
  std::string Out = exportCpp(Dir, Varied);
  std::string LlvmConfig = MLGO_TEST_LLVM_CONFIG;
  std::string ClangXX = llvm::sys::path::parent_path(ClangPath).str() + "/clang++";
  std::string Driver = Dir + "/driver.o";
  run(ClangXX + " $(" + LlvmConfig + " --cxxflags) -O2 -I" + shellQuote(Out) + " -I" +
      shellQuote(writeFeatureSpecs(Dir)) + " -c " +
      shellQuote(std::string(SourceDir) + "/test/export/ModelRunnerDriver.cpp") + " -o " +
      shellQuote(Driver));
  for (const std::string &Compiler : {ClangXX, std::string(MLGO_TEST_CXX)}) {
    INFO("model compiled by " << Compiler);
    std::string Model = shellQuote(Out + "/" + ModelSourceFile);
#if defined(__x86_64__)
    // Where the target has fused multiply-adds, a compiler may contract a * b + c into
    // one, which rounds differently from mlgo-ra: the source must forbid it.
    std::string Asm = run(Compiler + " -std=c++17 -O2 -mfma -S " + Model + " -o -");
    REQUIRE_THAT(Asm, !Catch::Contains("vfmadd") && !Catch::Contains("vfnmadd"));
#endif
    std::string Object = Dir + "/model.o", Exe = Dir + "/driver";
    run(Compiler + " -std=c++17 -O2" + (hostHasFma() ? " -mfma" : "") + " -c " + Model +
        " -o " + shellQuote(Object));
    run(ClangXX + " " + shellQuote(Driver) + " " + shellQuote(Object) + " $(" + LlvmConfig +
        " --ldflags --libs) -Wl,-rpath,$(" + LlvmConfig + " --libdir) -o " +
        shellQuote(Exe));
    requireSameDecisions(Exe, R.File, Varied, R.Obs);
  }
}
