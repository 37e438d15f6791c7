/// \file
/// Reading the bitcode (.llvmbc) and cc1 command (.llvmcmd) that
/// -Xclang -fembed-bitcode=all embeds in an object, in process with LLVM's Object library.
#pragma once

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include <memory>
#include <optional>

namespace mlgo {

struct EmbeddedModule {
  /// Owns the bytes the sections point into.
  std::unique_ptr<llvm::MemoryBuffer> File;
  /// The whole file is LLVM bitcode (an -flto object), so no sections to read.
  bool IsBitcodeFile = false;
  std::optional<llvm::StringRef> Bitcode;
  std::optional<llvm::StringRef> Command;
};

/// Reads \p Path. A file that is not an object or bitcode, or is corrupt, is an
/// InputError naming it; an object without the sections is not an error.
llvm::Expected<EmbeddedModule> readEmbeddedModule(llvm::StringRef Path);

} // namespace mlgo
