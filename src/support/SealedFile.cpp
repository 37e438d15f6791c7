/// \file
/// Seals: "<size> <sha256 hex>\n" in PATH.sum.
#include "SealedFile.h"
#include "Error.h"
#include "OutputFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SHA256.h"
#include <fmt/format.h>

namespace mlgo {

namespace {

std::string sealPath(llvm::StringRef Path) { return (Path + ".sum").str(); }

std::string sealOf(llvm::StringRef Contents) {
  return fmt::format("{} {}\n", Contents.size(),
                     llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(Contents)),
                                 /*LowerCase=*/true));
}

} // namespace

llvm::Error writeSealedFile(llvm::StringRef Path, llvm::StringRef Contents) {
  if (llvm::Error E = writeFileAtomically(sealPath(Path), sealOf(Contents)))
    return E;
  return writeFileAtomically(Path, Contents);
}

llvm::Error renameSealed(llvm::StringRef Written, llvm::StringRef Path) {
  auto Contents = llvm::MemoryBuffer::getFile(Written, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
  llvm::Error E = llvm::Error::success();
  if (!Contents)
    E = stageError("{}: cannot read: {}", Written.str(), Contents.getError().message());
  else
    E = writeFileAtomically(sealPath(Path), sealOf((*Contents)->getBuffer()));
  if (!E)
    if (std::error_code EC = llvm::sys::fs::rename(Written, Path))
      E = stageError("{}: cannot rename into place: {}", Path.str(), EC.message());
  if (E)
    llvm::sys::fs::remove(Written);
  return E;
}

SealedFile readSealedFile(llvm::StringRef Path) {
  SealedFile S;
  auto Seal = llvm::MemoryBuffer::getFile(sealPath(Path), /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  auto Contents = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
  if (!Contents && (Contents.getError() == std::errc::no_such_file_or_directory ||
                    Contents.getError() == std::errc::not_a_directory))
    return S; // Missing: never written, or its writer has not renamed it into place yet
  S.Is = SealedFile::Damaged;
  if (!Contents) {
    S.Why = "cannot read: " + Contents.getError().message();
    return S;
  }
  if (!Seal) {
    S.Why = "no seal (" + sealPath(Path) + ")";
    return S;
  }
  if ((*Seal)->getBuffer() != sealOf((*Contents)->getBuffer())) {
    S.Why = fmt::format("{} bytes do not match their seal ({})",
                        (*Contents)->getBufferSize(), sealPath(Path));
    return S;
  }
  S.Is = SealedFile::Whole;
  S.Contents = std::move(*Contents);
  return S;
}

void removeSealedFile(llvm::StringRef Path) {
  llvm::sys::fs::remove(Path);
  llvm::sys::fs::remove(sealPath(Path));
}

} // namespace mlgo
