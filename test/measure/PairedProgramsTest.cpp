// Paired mode's layouts on a real two-build program: every build's main renamed, the
// first layouts in the given and the reverse order, later ones with each build's code
// shifted by multiples of the code shift, keeping the alignment above it.
#include "PairedPrograms.h"
#include "TestSupport.h"

#include "llvm/Object/ObjectFile.h"
#include <catch2/catch.hpp>
#include <set>

using namespace mlgo;
using namespace mlgo::test;

namespace {

/// Each build's main's address modulo 64 in the linked program at \p Path.
std::vector<uint64_t> mainOffsets(const std::string &Path, size_t Builds) {
  auto Binary = requireOk(llvm::object::ObjectFile::createObjectFile(Path));
  std::vector<uint64_t> Offsets(Builds, 999);
  for (const llvm::object::SymbolRef &Symbol : Binary.getBinary()->symbols()) {
    std::string Name = requireOk(Symbol.getName()).str();
    for (size_t B = 0; B < Builds; ++B)
      if (Name == "main__v" + std::to_string(B))
        Offsets[B] = requireOk(Symbol.getAddress()) % 64;
  }
  return Offsets;
}

} // namespace

TEST_CASE("paired layouts shift code by the code shift and keep what is above", "[measure]") {
  std::string Dir = makeTempDir("paired-layouts");
  writeFile(Dir + "/main.c", "int work(int);\nint main(void) { return work(0); }\n");
  writeFile(Dir + "/work.c", "int work(int x) { return x; }\n");
  for (const char *Build : {"a", "b"}) {
    std::string Out = Dir + "/" + Build;
    REQUIRE(runShell("mkdir -p " + Out + " && " + ClangPath +
                     " -O1 -falign-functions=64 -c main.c -o " + Out + "/main.o && " +
                     ClangPath + " -O1 -c work.c -o " + Out + "/work.o",
                     Dir)
                .ExitCode == 0);
  }
  LinkCommand Link = requireOk(parseLinkCommand(std::string(ClangPath) + " main.o work.o -o p"));
  for (uint64_t Shift : {16, 64}) {
    std::string Scratch = makeTempDir("paired-scratch");
    PairedPrograms Programs = requireOk(
        PairedPrograms::prepare(Link, {Dir + "/a", Dir + "/b"}, Scratch, ClangPath, Shift));
    std::mt19937_64 Random(7);
    std::vector<size_t> Order;
    requireOk(Programs.link(0, Random, Order));
    CHECK(Order == std::vector<size_t>{0, 1});
    requireOk(Programs.link(1, Random, Order));
    CHECK(Order == std::vector<size_t>{1, 0});
    std::set<uint64_t> Offsets;
    for (unsigned Layout = 2; Layout < 12; ++Layout) {
      std::string Program = requireOk(Programs.link(Layout, Random, Order));
      for (uint64_t Offset : mainOffsets(Program, 2))
        Offsets.insert(Offset);
    }
    if (Shift == 64)
      CHECK(Offsets == std::set<uint64_t>{0}); // -falign-functions=64 kept
    else
      CHECK(Offsets.size() > 1); // 16, 32 or 48 bytes into a line too
    for (uint64_t Offset : Offsets)
      CHECK(Offset % 16 == 0);
  }
}
