/// \file
/// Fuzzes sealed cache files (support/SealedFile.h): an input is a file's contents and
/// the seal found beside it, split at the first NUL byte. The reader must call the file
/// whole exactly when that seal is the one writeSealedFile writes for those contents,
/// and then return them unchanged; a file without a seal is damaged, none is missing.
#include "FuzzInput.h"
#include "support/InputFile.h"
#include "support/OutputFile.h"
#include "support/SealedFile.h"

#include "llvm/Support/FileSystem.h"
#include <cstdlib>

using namespace mlgo;

namespace {

void require(bool Holds) {
  if (!Holds)
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Bytes(reinterpret_cast<const char *>(Data), Size);
  auto [Contents, Seal] = Bytes.split('\0');
  static const std::string Path = fuzz::emptyDirectory("sealed") + "/entry";
  std::string SealPath = Path + ".sum";
  if (writeSealedFile(Path, Contents))
    std::abort(); // the scratch directory is ours: not the input's fault
  auto TrueSeal = readRegularFile(SealPath);
  if (!TrueSeal)
    std::abort();
  SealedFile Read = readSealedFile(Path);
  require(Read.Is == SealedFile::Whole && Read.Contents->getBuffer() == Contents);

  if (writeFileAtomically(SealPath, Seal))
    std::abort();
  Read = readSealedFile(Path);
  require((Read.Is == SealedFile::Whole) == (Seal == (*TrueSeal)->getBuffer()));
  require(Read.Is != SealedFile::Missing);
  if (Read.Is == SealedFile::Whole)
    require(Read.Contents->getBuffer() == Contents);
  else
    require(!Read.Why.empty());

  llvm::sys::fs::remove(SealPath);
  require(readSealedFile(Path).Is == SealedFile::Damaged);
  removeSealedFile(Path);
  require(readSealedFile(Path).Is == SealedFile::Missing);
  return 0;
}
