/// \file
/// Small real builds used by the corpus tests.
#include "CorpusBuilds.h"
#include "TestSupport.h"

namespace mlgo::test {

const char *const EmbedFlags = "-O2 -Xclang -fembed-bitcode=all -fbasic-block-address-map";

void compile(const std::string &Dir, const std::string &SourceName,
             const std::string &Source, const std::string &Object,
             const std::string &Flags) {
  writeFile(Dir + "/" + SourceName, Source);
  CommandResult R = runShell(std::string(ClangPath) + " " + Flags + " -c " +
                                 shellQuote(SourceName) + " -o " + shellQuote(Object),
                             Dir);
  INFO(R.Output);
  REQUIRE(R.ExitCode == 0);
}

std::string makeSmallBuild() {
  std::string Dir = makeTempDir("build");
  compile(Dir, "a.c", "int sq(int x) { return x * x; }\n", "a.o");
  compile(Dir, "sub/b.c",
          "int sum(const int *p, int n) { int s = 0; for (int i = 0; i < n; ++i) s += p[i];"
          " return s; }\n",
          "sub/b.o");
  compile(Dir, "c.cpp", "#include <vector>\nint total(const std::vector<int> &v) {"
          " int s = 0; for (int x : v) s += x; return s; }\n",
          "c.o");
  compile(Dir, "asm.s", ".text\n.globl f\nf:\n  ret\n", "asm.o", "");
  compile(Dir, "plain.c", "int plain(void) { return 1; }\n", "plain.o", "-O2");
  return Dir;
}

} // namespace mlgo::test
