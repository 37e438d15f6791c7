#include "TestSupport.h"
#include "support/DirectoryWalk.h"

#include "llvm/Support/FileSystem.h"

using namespace mlgo;
using namespace mlgo::test;

TEST_CASE("a walk ends on symlink loops and lists each file once", "[support]") {
  std::string Dir = makeTempDir("walk");
  writeFile(Dir + "/a.o", "a");
  writeFile(Dir + "/sub/b.o", "b");
  writeFile(Dir + "/notes.txt", "n");
  namespace fs = llvm::sys::fs;
  REQUIRE_FALSE(fs::create_link(".", Dir + "/self"));
  REQUIRE_FALSE(fs::create_link("..", Dir + "/sub/up"));
  REQUIRE_FALSE(fs::create_link("../sub", Dir + "/sub/again"));
  REQUIRE_FALSE(fs::create_link("a.o", Dir + "/z-alias.o"));   // one file, two names
  REQUIRE_FALSE(fs::create_link("missing.o", Dir + "/dangling.o"));
  auto IsObject = [](llvm::StringRef P) { return P.ends_with(".o"); };
  CHECK(requireOk(listFilesBelow(Dir, IsObject)) ==
        std::vector<std::string>{Dir + "/a.o", Dir + "/sub/b.o"});
}
