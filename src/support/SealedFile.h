/// \file
/// Cache files that prove they are whole. A cache must never return a damaged entry (a
/// file cut short on a full disk, truncated or edited by hand): beside each file PATH,
/// PATH.sum holds its size and SHA-256, and a reader trusts the file only if they
/// match. The seal is written before the file is renamed into place, so a concurrent
/// reader sees no file, or a file and its seal.
#pragma once

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include <memory>
#include <string>

namespace mlgo {

/// Seals \p Contents as \p Path, then writes them there atomically.
llvm::Error writeSealedFile(llvm::StringRef Path, llvm::StringRef Contents);

/// Seals the file \p Written (a temporary that another program, such as clang, wrote)
/// as \p Path, then renames it there; on failure removes it.
llvm::Error renameSealed(llvm::StringRef Written, llvm::StringRef Path);

/// What a reader finds at a sealed file's path.
struct SealedFile {
  enum State { Missing, Whole, Damaged } Is = Missing;
  std::unique_ptr<llvm::MemoryBuffer> Contents; ///< when Whole
  std::string Why;                              ///< when Damaged: what does not match
};

/// Reads \p Path and checks it against its seal: Missing if neither exists, Whole if
/// they match, else Damaged (a file without a seal included).
SealedFile readSealedFile(llvm::StringRef Path);

/// Removes \p Path and its seal (a damaged entry, before it is recomputed).
void removeSealedFile(llvm::StringRef Path);

} // namespace mlgo
