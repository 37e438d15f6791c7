/// \file
/// Reading files the user names: only regular files (a device or a FIFO where a file is
/// expected would be read without end), and outputs that must not replace an input.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cstdint>
#include <memory>
#include <string>

namespace mlgo {

/// The size of \p Path, or an InputError if it cannot be read or is not a regular file
/// (symbolic links are followed).
llvm::Expected<uint64_t> regularFileSize(llvm::StringRef Path);

/// The whole of the regular file \p Path; errors as regularFileSize's.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> readRegularFile(llvm::StringRef Path);

/// Whether \p A and \p B name the same existing file (same device and inode).
bool isSameFile(llvm::StringRef A, llvm::StringRef B);

/// An InputError about \p Output if it names the same file as one of \p Inputs, which
/// writing it would replace.
llvm::Error checkOutputIsNoInput(llvm::StringRef Output, llvm::ArrayRef<std::string> Inputs);

/// Same, and also if \p Output lies inside an input that is a directory whose every
/// file is read (an object directory, a corpus): a report there could replace one of
/// them, or be read as one.
llvm::Error checkOutputOutsideInputs(llvm::StringRef Output,
                                     llvm::ArrayRef<std::string> Inputs);

} // namespace mlgo
