/// \file
/// Checking a module's bitcode before a compile: a corrupt or truncated .bc is bad
/// input, named in one line, not a compiler failure with the compiler's diagnostics.
#include "Corpus.h"
#include "support/Error.h"
#include "support/InputFile.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>

namespace mlgo {

llvm::Error checkModuleBitcode(llvm::StringRef Path) {
  auto Buffer = readRegularFile(Path);
  if (!Buffer)
    return Buffer.takeError();
  // The same reader as the compiler's: what it cannot read, clang-22 cannot either.
  llvm::LLVMContext Context;
  auto Module = llvm::parseBitcodeFile((*Buffer)->getMemBufferRef(), Context);
  if (!Module) {
    std::string Why = llvm::toString(Module.takeError());
    std::replace(Why.begin(), Why.end(), '\n', ' ');
    return inputError(Path, "not valid bitcode: {}", Why);
  }
  return llvm::Error::success();
}

} // namespace mlgo
