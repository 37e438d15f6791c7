#include "TestSupport.h"
#include "support/Error.h"
#include "support/OutputFile.h"

#include "llvm/Support/FileSystem.h"

using namespace mlgo;
using namespace mlgo::test;

TEST_CASE("atomic output creates directories and replaces whole files", "[support]") {
  std::string Dir = makeTempDir("out");
  std::string Path = Dir + "/a/b/c.txt";
  requireSuccess(writeFileAtomically(Path, "first"));
  requireSuccess(writeFileAtomically(Path, "second"));
  CHECK(readFile(Path) == "second");
}

TEST_CASE("a failed write leaves neither the file nor a temporary", "[support]") {
  std::string Dir = makeTempDir("out");
  std::string Path = Dir + "/c.txt";
  llvm::Error E = writeFileAtomically(Path, [](llvm::raw_ostream &OS) {
    OS << "half";
    return stageError("generator failed");
  });
  CHECK_THAT(requireError(std::move(E)), Catch::Contains("generator failed"));
  CHECK_FALSE(fileExists(Path));
  std::error_code EC;
  llvm::sys::fs::directory_iterator It(Dir, EC);
  CHECK(It == llvm::sys::fs::directory_iterator()); // empty: no temporary left behind
}
