/// \file
/// One thread's file of a DynamoRIO drmemtrace offline trace, read as a sequence of
/// chunks of bytes: the entries of a `.zip` in archive order (raw2trace writes one per
/// chunk of instructions), or the whole of a `.gz` or uncompressed file.
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <memory>
#include <string>

namespace mlgo {

class DrmemtraceFile {
public:
  /// Opens \p Path by its suffix: `.zip` (libzip), `.gz` (zlib) or anything else as
  /// uncompressed records.
  static llvm::Expected<std::unique_ptr<DrmemtraceFile>> open(llvm::StringRef Path);
  virtual ~DrmemtraceFile();

  /// Moves to the next chunk (the first, on the first call); false after the last.
  virtual llvm::Expected<bool> nextChunk() = 0;
  /// Reads up to \p Size bytes of the current chunk; 0 at its end.
  virtual llvm::Expected<size_t> read(uint8_t *Buf, size_t Size) = 0;
  /// The current chunk's name (a zip entry's), or empty for a file of one chunk.
  virtual std::string chunkName() const { return {}; }
  /// Whether chunks end with a chunk-footer marker (zip entries but the last do).
  virtual bool isChunked() const { return false; }
};

} // namespace mlgo
