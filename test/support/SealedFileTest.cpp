// Sealed cache files: read back only when whole; cut, grown, edited or unsealed files
// are damaged, and a missing one is just missing.
#include "SealedFile.h"
#include "TestSupport.h"

#include "llvm/Support/FileSystem.h"

using namespace mlgo;
using namespace mlgo::test;

TEST_CASE("a sealed file reads back whole, and any change to it is damage", "[support]") {
  std::string Dir = makeTempDir("sealed");
  std::string Path = Dir + "/entry.bin";
  CHECK(readSealedFile(Path).Is == SealedFile::Missing);

  std::string Bytes("MLGOEVC1\x01\x02\x00\x05", 12);
  requireSuccess(writeSealedFile(Path, Bytes));
  SealedFile Read = readSealedFile(Path);
  REQUIRE(Read.Is == SealedFile::Whole);
  CHECK(Read.Contents->getBuffer() == Bytes);

  std::string Edited = Bytes;
  Edited[11] = '\x06';
  for (const std::string &Damaged : {Bytes.substr(0, 8), Bytes + "x", std::string(), Edited}) {
    writeFile(Path, Damaged);
    SealedFile Bad = readSealedFile(Path);
    CHECK(Bad.Is == SealedFile::Damaged);
    CHECK(Bad.Why == std::to_string(Damaged.size()) + " bytes do not match their seal (" +
                         Path + ".sum)");
    CHECK(!Bad.Contents);
  }
  // A file another program wrote, sealed as it is renamed into place.
  writeFile(Dir + "/clang.tmp", "clang's bitcode");
  requireSuccess(renameSealed(Dir + "/clang.tmp", Path));
  CHECK(!fileExists(Dir + "/clang.tmp"));
  CHECK(readSealedFile(Path).Contents->getBuffer() == "clang's bitcode");
  CHECK(requireError(renameSealed(Dir + "/none.tmp", Path)).find(Dir + "/none.tmp: cannot read") == 0);
  // A seal whose file is not renamed into place yet, or is gone: missing.
  llvm::sys::fs::remove(Path);
  CHECK(readSealedFile(Path).Is == SealedFile::Missing);
  removeSealedFile(Path);
  writeFile(Path, "no seal");
  SealedFile Unsealed = readSealedFile(Path);
  CHECK(Unsealed.Is == SealedFile::Damaged);
  CHECK(Unsealed.Why == "no seal (" + Path + ".sum)");
}
