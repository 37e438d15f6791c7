#include "CorpusBuilds.h"
#include "TestSupport.h"
#include "corpus/Corpus.h"
#include "corpus/ExtractCorpus.h"

using namespace mlgo;
using namespace mlgo::test;

namespace {

ExtractCorpusResult extract(const std::string &Input, const std::string &Out,
                            InputKind Kind = InputKind::Auto) {
  ExtractCorpusOptions Opts;
  Opts.Input = Input;
  Opts.OutputDir = Out;
  Opts.Kind = Kind;
  Opts.ShowProgress = false;
  return requireOk(runExtractCorpus(Opts));
}

std::string reasonFor(const ExtractCorpusResult &R, const std::string &Suffix) {
  for (const SkippedObject &S : R.Skipped)
    if (llvm::StringRef(S.Object).ends_with(Suffix))
      return S.Reason;
  return "";
}

/// The corpus files equal the sections of the objects they came from, byte for byte.
void checkModuleMatchesObject(const std::string &Out, const std::string &Module,
                              const std::string &Object) {
  CHECK(readFile(Out + "/" + Module + ".bc") == readSections(Object, ".llvmbc")[".llvmbc"]);
  CHECK(readFile(Out + "/" + Module + ".cmd") ==
        readSections(Object, ".llvmcmd")[".llvmcmd"]);
}

} // namespace

TEST_CASE("a directory of objects: modules extracted, others skipped with reasons",
          "[corpus]") {
  std::string Build = makeSmallBuild();
  std::string Out = makeTempDir("out");
  ExtractCorpusResult R = extract(Build, Out);
  CHECK(R.Kind == InputKind::Directory);
  CHECK(R.ObjectsScanned == 5);
  CHECK(R.Modules == std::vector<std::string>{"a.o", "c.o", "sub/b.o"});
  CHECK(reasonFor(R, "asm.o") == "no .llvmbc section (not compiled with -Xclang "
                                 "-fembed-bitcode=all)");
  CHECK(reasonFor(R, "plain.o") == reasonFor(R, "asm.o"));
  for (const std::string &M : R.Modules)
    checkModuleMatchesObject(Out, M, Build + "/" + M);
  Corpus C = requireOk(loadCorpus(Out));
  CHECK(C.Modules == R.Modules);
  CHECK_FALSE(C.HasThinLTO);
  CHECK(readFile(Out + "/corpus_description.json") ==
        "{\n  \"has_thinlto\": false,\n  \"modules\": [\n    \"a.o\",\n    \"c.o\",\n"
        "    \"sub/b.o\"\n  ]\n}\n");
  CHECK(R.BytesWritten > 0);
}

TEST_CASE("compile_commands.json: 'arguments' and 'command' entries", "[corpus]") {
  std::string Build = makeSmallBuild();
  std::string Clang = ClangPath;
  std::string Json = "[\n"
                     R"({"directory": ")" + Build + R"(", "file": "a.c", "arguments": [")" +
                     Clang + R"(", "-O2", "-c", "a.c", "-o", "a.o"]},)" "\n"
                     R"({"directory": ")" + Build + R"(", "file": "sub/b.c", "command": ")" +
                     Clang + R"( -O2 -DNAME=\"x y\" -c sub/b.c -o )" + Build +
                     R"(/sub/b.o"},)" "\n"
                     R"({"directory": ")" + Build + R"(", "file": "x.c", "command": "cc -E x.c"},)"
                     "\n"
                     R"({"directory": ")" + Build + R"(", "file": "a.c", "arguments": ["cc", "-c", "a.c", "-o", "a.o"]})"
                     "\n]\n";
  writeFile(Build + "/compile_commands.json", Json);
  std::string Out = makeTempDir("out");
  ExtractCorpusResult R = extract(Build + "/compile_commands.json", Out);
  CHECK(R.Kind == InputKind::CompileCommands);
  // The preprocessing-only entry has no -o; the duplicate a.o is listed once.
  CHECK(R.Modules == std::vector<std::string>{"a.o", "sub/b.o"});
  checkModuleMatchesObject(Out, "sub/b.o", Build + "/sub/b.o");
}

TEST_CASE("a linker parameter file: its object operands, not its output", "[corpus]") {
  std::string Build = makeSmallBuild();
  writeFile(Build + "/link.params", "-o app\n--gc-sections\nsub/b.o\n-lm\n\"a.o\"\nlibx.a\n"
                                    "c.o\n");
  ExtractCorpusOptions Opts;
  Opts.Input = Build + "/link.params";
  Opts.OutputDir = makeTempDir("out");
  Opts.ObjectBaseDir = Build;
  Opts.ShowProgress = false;
  ExtractCorpusResult R = requireOk(runExtractCorpus(Opts));
  CHECK(R.Kind == InputKind::LinkerParams);
  CHECK(R.Modules == std::vector<std::string>{"sub/b.o", "a.o", "c.o"});
}

TEST_CASE("local ThinLTO: import bitcode and index, with the command override",
          "[corpus]") {
  std::string Build = makeTempDir("thinlto-local");
  std::string Flags = "-O2 -flto=thin";
  compile(Build, "m.c", "int g(int);\nint main(int c, char **v) { return g(c); }\n", "m.o",
          Flags);
  compile(Build, "lib/g.c", "int g(int x) { int s = 0; for (int i = 0; i < x; ++i) s += i;"
          " return s; }\n", "lib/g.o", Flags);
  CommandResult Link = runShell(std::string(ClangPath) +
                                    " -flto=thin -fuse-ld=lld -Wl,--save-temps=import "
                                    "-Wl,--thinlto-emit-index-files m.o lib/g.o -o app",
                                Build);
  INFO(Link.Output);
  REQUIRE(Link.ExitCode == 0);

  ExtractCorpusOptions Opts;
  Opts.Input = Build;
  Opts.OutputDir = makeTempDir("out");
  Opts.ShowProgress = false;
  CHECK_THAT(requireError(runExtractCorpus(Opts)),
             Catch::Contains("pass the cc1 command of its modules with "
                             "--global-command-override"));

  Opts.GlobalCommandOverride = {"-cc1", "-triple", "x86_64-pc-linux-gnu", "-O2",
                                "-emit-obj"};
  ExtractCorpusResult R = requireOk(runExtractCorpus(Opts));
  CHECK(R.Kind == InputKind::ThinLTOLocal);
  CHECK(R.HasThinLTO);
  CHECK(R.Modules == std::vector<std::string>{"lib/g.o", "m.o"});
  CHECK(readFile(Opts.OutputDir + "/m.o.bc") == readFile(Build + "/m.o.3.import.bc"));
  CHECK(readFile(Opts.OutputDir + "/m.o.thinlto.bc") == readFile(Build + "/m.o.thinlto.bc"));
  CHECK_FALSE(fileExists(Opts.OutputDir + "/m.o.cmd"));

  // The corpus recompiles: override + -x ir + index + -thinlto-assume-merged.
  Corpus C = requireOk(loadCorpus(Opts.OutputDir));
  CHECK(C.GlobalCommandOverride == Opts.GlobalCommandOverride);
  std::string Command = ClangPath;
  for (const std::string &A : requireOk(buildRecompileCommand(C, "lib/g.o")))
    Command += " " + shellQuote(A);
  CommandResult Recompile = runShell(Command + " -o g.native.o", Opts.OutputDir);
  INFO(Recompile.Output);
  CHECK(Recompile.ExitCode == 0);
  CHECK(readSections(Opts.OutputDir + "/g.native.o", ".text")[".text"].size() > 0);
}

TEST_CASE("distributed ThinLTO: each backend's index is copied beside its module",
          "[corpus]") {
  std::string Build = makeTempDir("thinlto-dist");
  compile(Build, "m.c", "int g(int);\nint main(int c, char **v) { return g(c); }\n", "m.o",
          "-O2 -flto=thin");
  compile(Build, "g.c", "int g(int x) { return x * 7; }\n", "g.o", "-O2 -flto=thin");
  std::string Clang = ClangPath;
  // The driver's -fembed-bitcode=all here: clang 22 crashes on the -Xclang form with
  // -fthinlto-index (renameModuleForThinLTO).
  CommandResult Backends = runShell(
      "mkdir -p native && " + Clang + " -flto=thin -fuse-ld=lld -Wl,--thinlto-index-only m.o g.o -o app && " +
          Clang + " -O2 -x ir m.o -fthinlto-index=m.o.thinlto.bc -fembed-bitcode=all -c "
                  "-o native/m.o && " +
          Clang + " -O2 -x ir g.o -fthinlto-index=g.o.thinlto.bc -fembed-bitcode=all -c "
                  "-o native/g.o",
      Build);
  INFO(Backends.Output);
  REQUIRE(Backends.ExitCode == 0);

  std::string Out = makeTempDir("out");
  ExtractCorpusResult R = extract(Build, Out);
  CHECK(R.HasThinLTO);
  CHECK(R.Modules == std::vector<std::string>{"native/g.o", "native/m.o"});
  CHECK_THAT(reasonFor(R, "/m.o"), Catch::StartsWith("LLVM bitcode object (-flto)"));
  CHECK(readFile(Out + "/native/m.o.thinlto.bc") == readFile(Build + "/m.o.thinlto.bc"));
  CHECK(requireOk(loadCorpus(Out)).HasThinLTO);
}

TEST_CASE("a command filter keeps modules with a matching option", "[corpus]") {
  std::string Build = makeTempDir("filter");
  compile(Build, "fast.c", "int f(int x) { return x + 1; }\n", "fast.o");
  compile(Build, "small.c", "int s(int x) { return x + 2; }\n", "small.o",
          "-Oz -Xclang -fembed-bitcode=all");
  ExtractCorpusOptions Opts;
  Opts.Input = Build;
  Opts.OutputDir = makeTempDir("out");
  Opts.ShowProgress = false;
  Opts.CmdFilter = "^-Oz$";
  ExtractCorpusResult R = requireOk(runExtractCorpus(Opts));
  CHECK(R.Modules == std::vector<std::string>{"small.o"});
  CHECK(reasonFor(R, "fast.o") == "no option matches --cmd-filter");

  Opts.CmdFilter = "(";
  CHECK_THAT(requireError(runExtractCorpus(Opts)),
             Catch::StartsWith("--cmd-filter: invalid regular expression '('"));
}

TEST_CASE("a corrupt object fails the run, names the object and leaves no description",
          "[corpus]") {
  std::string Build = makeSmallBuild();
  std::string Out = makeTempDir("out");
  extract(Build, Out);
  REQUIRE(fileExists(Out + "/corpus_description.json"));

  writeFile(Build + "/zz/bad.o", "this is not an object");
  ExtractCorpusOptions Opts;
  Opts.Input = Build;
  Opts.OutputDir = Out;
  Opts.ShowProgress = false;
  CHECK_THAT(requireError(runExtractCorpus(Opts)),
             Catch::StartsWith(Build + "/zz/bad.o: not a readable object file"));
  CHECK_FALSE(fileExists(Out + "/corpus_description.json"));
}

TEST_CASE("a build with nothing to extract is an error, not an empty corpus", "[corpus]") {
  std::string Build = makeTempDir("empty");
  compile(Build, "plain.c", "int plain(void) { return 1; }\n", "plain.o", "-O2");
  ExtractCorpusOptions Opts;
  Opts.Input = Build;
  Opts.OutputDir = makeTempDir("out");
  CHECK_THAT(requireError(runExtractCorpus(Opts)),
             Catch::StartsWith(Build + ": no module to extract: 1 objects, 1 skipped"));
  ExtractCorpusOptions Missing;
  Missing.Input = "/nonexistent/dir";
  Missing.OutputDir = "out";
  CHECK_THAT(requireError(runExtractCorpus(Missing)),
             Catch::StartsWith("/nonexistent/dir: cannot read"));
}
