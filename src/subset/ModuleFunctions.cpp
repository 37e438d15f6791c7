/// \file
/// Listing a module's defined functions from its bitcode.
#include "ModuleFunctions.h"
#include "support/Error.h"
#include "support/InputFile.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace mlgo {

llvm::Expected<std::vector<DefinedFunction>> readDefinedFunctions(llvm::StringRef BitcodePath) {
  auto Buffer = readRegularFile(BitcodePath);
  if (!Buffer)
    return Buffer.takeError();
  llvm::LLVMContext Context;
  auto Module = llvm::getLazyBitcodeModule((*Buffer)->getMemBufferRef(), Context);
  if (!Module)
    return inputError(BitcodePath, "not readable bitcode: {}",
                      llvm::toString(Module.takeError()));
  std::string File = llvm::sys::path::filename((*Module)->getSourceFileName()).str();
  std::vector<DefinedFunction> Defined;
  auto Add = [&](const llvm::GlobalValue &GV) {
    // A name starting with \1 is an asm label, used verbatim as the symbol.
    std::string Name = GV.getName().str();
    if (!Name.empty() && Name[0] == '\1')
      Name.erase(0, 1);
    bool Local = GV.hasLocalLinkage();
    Defined.push_back({Local ? File + ":" + Name : Name, GV.getName().str(), Local});
  };
  for (const llvm::Function &F : **Module)
    if (!F.isDeclaration() && !F.hasAvailableExternallyLinkage() && F.hasName())
      Add(F);
  for (const llvm::GlobalAlias &A : (*Module)->aliases())
    if (llvm::isa<llvm::Function>(A.getAliaseeObject()) && A.hasName())
      Add(A);
  return Defined;
}

} // namespace mlgo
