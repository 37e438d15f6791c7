/// \file
/// What every fuzz target shares: the bytes of one input as a file (most readers take a
/// path, as the CLI does), and dropping the readers' errors, which are expected: a
/// target fails only by crashing, hanging, leaking or tripping a sanitizer.
#pragma once

#include "llvm/Support/Error.h"
#include <cstddef>
#include <cstdint>
#include <string>

namespace mlgo::fuzz {

/// Writes \p Data to a file named \p Name in this process's scratch directory (in
/// /dev/shm when it exists, so that an execution stays cheap) and returns its path.
std::string writeInput(const uint8_t *Data, size_t Size, const char *Name = "input");

/// A fresh, empty directory in the scratch directory, for readers of directories.
std::string emptyDirectory(const char *Name);

/// A path in the scratch directory for outputs (removed before returning it).
std::string outputPath(const char *Name);

template <typename T> void drop(llvm::Expected<T> Value) {
  if (!Value)
    llvm::consumeError(Value.takeError());
}
inline void drop(llvm::Error E) { llvm::consumeError(std::move(E)); }

} // namespace mlgo::fuzz
