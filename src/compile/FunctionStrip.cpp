/// \file
/// Declaring the functions a trace does not need.
#include "FunctionStrip.h"
#include "support/Error.h"
#include "support/InputFile.h"
#include "support/OutputFile.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"

namespace mlgo {

namespace {

/// Functions that aliases and ifuncs point into: the IR forbids declaring them.
llvm::SmallPtrSet<const llvm::Function *, 8> aliasees(const llvm::Module &M) {
  llvm::SmallPtrSet<const llvm::Function *, 8> Out;
  for (const llvm::GlobalAlias &A : M.aliases())
    if (auto *F = llvm::dyn_cast<llvm::Function>(A.getAliaseeObject()))
      Out.insert(F);
  for (const llvm::GlobalIFunc &I : M.ifuncs())
    if (const llvm::Function *F = I.getResolverFunction())
      Out.insert(F);
  return Out;
}

} // namespace

llvm::Expected<StripResult> keepOnlyFunctions(llvm::StringRef Input,
                                              const llvm::StringSet<> &Keep,
                                              llvm::StringRef Output) {
  auto Buffer = readRegularFile(Input);
  if (!Buffer)
    return Buffer.takeError();
  llvm::LLVMContext Context;
  auto M = llvm::parseBitcodeFile((*Buffer)->getMemBufferRef(), Context);
  if (!M)
    return withInput(Input, M.takeError());

  StripResult Result;
  llvm::StringSet<> Defined;
  auto Needed = aliasees(**M);
  for (llvm::Function &F : **M) {
    if (F.isDeclaration())
      continue;
    Defined.insert(F.getName());
    if (Keep.contains(F.getName()) || Needed.contains(&F)) {
      ++Result.Kept;
      continue;
    }
    // A declaration is external and outside any comdat; it keeps its calling
    // convention and dso_local, so callers' code does not change.
    F.deleteBody();
    F.setComdat(nullptr);
    ++Result.Stripped;
  }
  // An alias defines its name by the function it names, always kept: a C++ class's
  // complete-object destructor (D1) is often an alias of its base-object one (D2).
  for (const llvm::GlobalAlias &A : (*M)->aliases())
    if (auto *F = llvm::dyn_cast<llvm::Function>(A.getAliaseeObject()); F && !F->isDeclaration())
      Defined.insert(A.getName());
  for (const auto &Name : Keep)
    if (!Defined.contains(Name.getKey()))
      Result.Missing.push_back(Name.getKey().str());
  std::sort(Result.Missing.begin(), Result.Missing.end());
  if (!Result.Missing.empty())
    return Result;

  std::string Broken;
  llvm::raw_string_ostream Why(Broken);
  if (llvm::verifyModule(**M, &Why))
    return stageError("{}: declaring untraced functions broke the module: {}",
                      Input.str(), llvm::StringRef(Broken).trim().str());
  if (llvm::Error E = writeFileAtomically(Output, [&](llvm::raw_ostream &OS) {
        llvm::WriteBitcodeToFile(**M, OS, /*ShouldPreserveUseListOrder=*/true);
        return llvm::Error::success();
      }))
    return E;
  return Result;
}

} // namespace mlgo
