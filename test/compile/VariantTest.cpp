// Variant compiles of a real corpus: the fast path (cached middle end, code generation
// of the traced functions only) against whole compiles, with and without the advisor.
#include "CompileFixture.h"
#include "TestSupport.h"
#include "Variant.h"
#include "VariantCommand.h"
#include "corpus/ExtractCorpus.h"
#include "policy/Policy.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlgo;
using namespace mlgo::test;

namespace {

const char *const AppSource = R"(
#include <algorithm>
#include <vector>
namespace {
struct Item { int key, value; };
__attribute__((noinline)) bool byKey(const Item &a, const Item &b) { return a.key < b.key; }
}
template <typename T> __attribute__((noinline)) T clampTo(T v, T lo, T hi) {
  return v < lo ? lo : v > hi ? hi : v;
}
int run(int n) {
  std::vector<Item> items;
  for (int i = 0; i < n; ++i) items.push_back({(i * 7919) % 1000, i});
  std::sort(items.begin(), items.end(), byKey);
  int s = 0;
  for (const Item &it : items) s = s * 31 + clampTo(it.value, 0, 500);
  return s;
}
int unused(int n) { return clampTo(n, 1, 2) + (int)std::vector<int>(n).size(); }
)";

const char *const ExtraSource = R"(
int g(int x) { return x * 3 + 1; }
int g_alias(int) __attribute__((alias("g")));
static int helper(int x) { return x ^ 0x55; }
int cold(int x) { return helper(x) + g(x); }
)";

/// A corpus of two modules built with -ffunction-sections (so each function's code is a
/// section of its own), and a subset_functions.json naming the traced functions.
std::string makeCorpus(const std::string &Dir) {
  writeFile(Dir + "/src/pressure.c", PressureSource + std::string(ExtraSource));
  writeFile(Dir + "/src/app.cpp", AppSource);
  std::string Flags = "-O2 -Xclang -fembed-bitcode=all -ffunction-sections";
  for (llvm::StringRef Arg : requiredVariantFlags())
    Flags += " " + Arg.str();
  CommandResult Built = runShell("mkdir -p objs && " + std::string(ClangPath) + " " + Flags +
                                     " -c src/pressure.c -o objs/pressure.o && " +
                                     ClangPath + " " + Flags + " -c src/app.cpp -o objs/app.o",
                                 Dir);
  INFO(Built.Output);
  REQUIRE(Built.ExitCode == 0);
  ExtractCorpusOptions Extract;
  Extract.Input = Dir + "/objs";
  Extract.OutputDir = Dir + "/corpus";
  Extract.ShowProgress = false;
  requireOk(runExtractCorpus(Extract));
  return Dir + "/corpus";
}

void writeTraced(const std::string &Corpus, const std::string &PressureFunctions,
                 const std::string &AppFunctions) {
  writeFile(Corpus + "/subset_functions.json",
            R"({"format": "mlgo-ra.subset", "version": 1, "modules": [)"
            R"({"name": "pressure.o", "functions": [)" + PressureFunctions + "]}, " +
                R"({"name": "app.o", "functions": [)" + AppFunctions + "]}]}\n");
}

const char *const TracedApp = R"("_Z3runi", "_ZN12_GLOBAL__N_15byKeyERKNS_4ItemES2_")";

VariantResult compile(const Policy &P, const VariantPlan &Plan, const std::string &Out) {
  VariantOptions Opts;
  Opts.Clang = ClangPath;
  Opts.Jobs = 2;
  return requireOk(compileVariant(P, Plan, Out, Opts));
}

PlanOptions planOptions(const std::string &CacheDir) {
  PlanOptions Opts;
  Opts.Clang = ClangPath;
  Opts.CacheDir = CacheDir;
  Opts.Jobs = 2;
  return Opts;
}

} // namespace

TEST_CASE("the fast path gives the traced functions the code of a whole compile",
          "[compile][variant]") {
  std::string Dir = makeTempDir("variant-fast");
  std::string Corpus = makeCorpus(Dir);
  writeTraced(Corpus, R"("mix", "hash")", TracedApp);

  VariantPlan Fast = requireOk(planVariant(Corpus, planOptions(Dir + "/cache")));
  VariantPlan Whole = requireOk(planVariant(Corpus, planOptions("")));
  CHECK(Fast.FastPath);
  CHECK_FALSE(Whole.FastPath);
  REQUIRE(Fast.Modules.size() == 2);
  for (const PlannedModule &M : Fast.Modules)
    CHECK_FALSE(M.Reused);

  for (const char *Name : {"default", "initial"}) {
    Policy P = requireOk(builtinPolicy(Name));
    VariantResult F = compile(P, Fast, Dir + "/fast-" + Name);
    VariantResult W = compile(P, Whole, Dir + "/whole-" + Name);
    CHECK(F.FastPath);
    if (P.usesAdvisor()) {
      CHECK(F.Decisions > 0); // the policy was asked
      CHECK(F.Decisions < W.Decisions); // about the traced functions only
    }
    for (const char *Module : {"pressure.o", "app.o"}) {
      auto FastCode = readSections(F.Directory + "/" + Module, ".text.");
      auto WholeCode = readSections(W.Directory + "/" + Module, ".text.");
      std::vector<std::string> Traced =
          std::string(Module) == "pressure.o"
              ? std::vector<std::string>{"mix", "hash"}
              : std::vector<std::string>{"_Z3runi", "_ZN12_GLOBAL__N_15byKeyERKNS_4ItemES2_"};
      for (const std::string &Function : Traced) {
        INFO(Name << " " << Module << " " << Function);
        REQUIRE(FastCode.count(".text." + Function));
        REQUIRE(WholeCode.count(".text." + Function));
        CHECK(FastCode[".text." + Function] == WholeCode[".text." + Function]);
      }
      // Untraced functions get no code on the fast path.
      for (const char *Untraced : {".text.dot", ".text.cold", ".text._Z6unusedi"})
        CHECK_FALSE(FastCode.count(Untraced));
    }
    CHECK(readSections(W.Directory + "/pressure.o", ".text.").count(".text.dot"));
  }

  // A second plan finds every middle end in the cache.
  VariantPlan Again = requireOk(planVariant(Corpus, planOptions(Dir + "/cache")));
  for (const PlannedModule &M : Again.Modules)
    CHECK(M.Reused);
}

TEST_CASE("a traced alias is defined by the function it names", "[compile][variant]") {
  // As a C++ complete-object destructor (D1) that is an alias of its base-object one.
  std::string Dir = makeTempDir("variant-alias");
  std::string Corpus = makeCorpus(Dir);
  writeTraced(Corpus, R"("mix", "g_alias")", TracedApp);
  VariantPlan Fast = requireOk(planVariant(Corpus, planOptions(Dir + "/cache")));
  CHECK(Fast.FastPath);
  VariantResult F = compile(Policy::makeDefault(), Fast, Dir + "/fast");
  auto Code = readSections(F.Directory + "/pressure.o", ".text.");
  CHECK(Code.count(".text.g"));   // the alias's code, kept
  CHECK_FALSE(Code.count(".text.cold"));
}

TEST_CASE("variant compiles refuse what they cannot do", "[compile][variant]") {
  std::string Dir = makeTempDir("variant-errors");
  std::string Corpus = makeCorpus(Dir);

  writeTraced(Corpus, R"("mix", "nosuch")", TracedApp);
  CHECK(requireError(planVariant(Corpus, planOptions(Dir + "/cache"))) ==
        Corpus + "/pressure.o.bc: does not define the traced function nosuch");

  writeFile(Corpus + "/subset_functions.json",
            R"({"format": "mlgo-ra.subset", "modules": [{"name": "app.o", "functions": []}]})");
  CHECK(requireError(planVariant(Corpus, planOptions(Dir + "/cache"))) ==
        Corpus + "/subset_functions.json: lists no functions for module 'pressure.o'");

  // The output directory is replaced only when it holds a variant.
  writeTraced(Corpus, R"("mix")", TracedApp);
  VariantPlan Plan = requireOk(planVariant(Corpus, planOptions(Dir + "/cache")));
  writeFile(Dir + "/mine/notes.txt", "keep me");
  VariantOptions Opts;
  Opts.Clang = ClangPath;
  CHECK(requireError(compileVariant(Policy::makeDefault(), Plan, Dir + "/mine", Opts)) ==
        Dir + "/mine: exists and does not hold a variant (variant.json is missing); "
              "not replacing it");
  CHECK(readFile(Dir + "/mine/notes.txt") == "keep me");
  compile(Policy::makeDefault(), Plan, Dir + "/variant");
  compile(requireOk(builtinPolicy("poor")), Plan, Dir + "/variant");
  CHECK(listDir(Dir + "/variant").size() == 3); // two objects and variant.json
  std::vector<std::string> Left = listDir(Dir);
  CHECK(std::none_of(Left.begin(), Left.end(), [](const std::string &Name) {
    return llvm::StringRef(Name).contains(".tmp-");
  }));

  // A compiler failure leaves no half-written variant behind.
  Opts.Clang = "/bin/false";
  CHECK(!compileVariant(Policy::makeDefault(), Plan, Dir + "/failed", Opts));
  CHECK_FALSE(fileExists(Dir + "/failed"));
}

TEST_CASE("the memo reuses a compile exactly when the policy answers it the same way",
          "[compile][variant]") {
  std::string Dir = makeTempDir("variant-memo");
  std::string Corpus = makeCorpus(Dir);
  writeTraced(Corpus, R"("mix", "hash")", TracedApp);
  VariantPlan Plan = requireOk(planVariant(Corpus, planOptions(Dir + "/cache")));
  CompileMemo Memo(Plan.Modules.size());
  VariantOptions Opts;
  Opts.Clang = ClangPath;
  Opts.Memo = &Memo;
  auto Compile = [&](const Policy &P, const std::string &Name) {
    return requireOk(compileVariant(P, Plan, Dir + "/" + Name, Opts));
  };

  Policy Initial = requireOk(builtinPolicy("initial"));
  VariantResult First = Compile(Initial, "first");
  CHECK(First.Reused == 0);
  REQUIRE(First.Decisions > 0);
  VariantResult Again = Compile(Initial, "again");
  CHECK(Again.Reused == 2);
  CHECK(Again.Decisions == First.Decisions);

  // A perturbation too small to change a decision reproduces every compile, and the
  // reused objects are the ones the compiler writes.
  Policy Nudged = Initial;
  for (float &W : Nudged.parameters())
    W *= 1.0f + 1e-6f;
  VariantResult Reused = Compile(Nudged, "nudged");
  CHECK(Reused.Reused == 2);
  Opts.Memo = nullptr;
  Compile(Nudged, "nudged-compiled");
  for (const char *Module : {"pressure.o", "app.o"})
    CHECK(readFile(Dir + "/nudged/" + Module) ==
          readFile(Dir + "/nudged-compiled/" + Module));

  // A policy that decides differently runs the compiler where it does (a module whose
  // every decision has one legal answer is reused); its variant is the compiler's.
  Opts.Memo = &Memo;
  Policy Poor = requireOk(builtinPolicy("poor"));
  VariantResult PoorResult = Compile(Poor, "poor");
  CHECK(PoorResult.Reused < 2);
  Opts.Memo = nullptr;
  Compile(Poor, "poor-compiled");
  for (const char *Module : {"pressure.o", "app.o"})
    CHECK(readFile(Dir + "/poor/" + Module) == readFile(Dir + "/poor-compiled/" + Module));
  CHECK(readFile(Dir + "/poor/app.o") != readFile(Dir + "/first/app.o"));
  Opts.Memo = &Memo;
  CHECK(Compile(Policy::makeDefault(), "default").Reused == 0);
  CHECK(Compile(Policy::makeDefault(), "default-again").Reused == 2);
}
