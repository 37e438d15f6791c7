#include "CompileFixture.h"
#include "TestSupport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace mlgo::test {

const char *const PressureSource = R"(
int g(int);
int mix(int *a, int n) {
  int s = 0, t = 1, u = 2, v = 3, w = 4, x = 5, y = 6, z = 7;
  for (int i = 0; i < n; i++) {
    s += a[i] * t; t ^= g(s); u += s * v; v -= g(u); w += t * u; x ^= w + v + s;
    y += x * z; z ^= g(y + w);
    a[i] = s + t + u + v + w + x + y + z;
  }
  return s + t + u + v + w + x + y + z;
}
long dot(const long *a, const long *b, int n) {
  long r0 = 0, r1 = 0, r2 = 0, r3 = 0;
  for (int i = 0; i + 3 < n; i += 4) {
    r0 += a[i] * b[i]; r1 += a[i + 1] * b[i + 1];
    r2 += a[i + 2] * b[i + 2]; r3 += a[i + 3] * b[i + 3];
    g((int)(r0 ^ r3));
  }
  return r0 + r1 + r2 + r3;
}
unsigned hash(const unsigned char *p, int n, unsigned seed) {
  unsigned h1 = seed, h2 = seed ^ 0x9e3779b9u, h3 = seed * 31, h4 = ~seed;
  for (int i = 0; i < n; i++) {
    h1 = (h1 ^ p[i]) * 16777619u; h2 = (h2 + p[i]) * 2654435761u;
    h3 ^= h1 >> 7; h4 += h2 << 3; if (p[i] == 0) h1 = g(h1 + h2 + h3 + h4);
  }
  return h1 ^ h2 ^ h3 ^ h4;
}
)";

std::string compileToBitcode(const std::string &Dir, const std::string &Name,
                             const std::string &Source, const std::string &Flags) {
  std::string C = Dir + "/" + Name + ".c", Bc = Dir + "/" + Name + ".bc";
  writeFile(C, Source);
  CommandResult R = runShell(std::string(ClangPath) + " -O2 -emit-llvm -c " + Flags +
                             " " + shellQuote(C) + " -o " + shellQuote(Bc));
  INFO(R.Output);
  REQUIRE(R.ExitCode == 0);
  return Bc;
}

std::vector<std::string> objectArgs(const std::string &Bitcode, const std::string &Object,
                                    bool FunctionSections) {
  std::vector<std::string> Args = {"-triple", "x86_64-unknown-linux-gnu",
                                   "-O2",     "-emit-obj",
                                   "-x",      "ir",
                                   Bitcode,   "-o",
                                   Object};
  if (FunctionSections)
    Args.push_back("-ffunction-sections");
  return Args;
}

CompileOptions optionsFor(const std::string &Dir, std::vector<std::string> Args) {
  CompileOptions O;
  O.Clang = ClangPath;
  O.Args = std::move(Args);
  O.ChannelParent = Dir + "/channels";
  llvm::sys::fs::create_directories(O.ChannelParent);
  return O;
}

std::vector<std::string> listDir(const std::string &Dir) {
  std::vector<std::string> Names;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    Names.push_back(llvm::sys::path::filename(It->path()).str());
  return Names;
}

} // namespace mlgo::test
