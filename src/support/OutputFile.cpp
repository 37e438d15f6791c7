/// \file
/// Atomic output files on top of llvm::writeToOutput (temporary file + rename).
#include "OutputFile.h"
#include "Error.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace mlgo {

llvm::Error writeFileAtomically(llvm::StringRef Path,
                                std::function<llvm::Error(llvm::raw_ostream &)> Write) {
  llvm::StringRef Parent = llvm::sys::path::parent_path(Path);
  if (!Parent.empty())
    if (std::error_code EC = llvm::sys::fs::create_directories(Parent))
      return stageError("{}: cannot create directory: {}", Parent.str(), EC.message());
  if (llvm::Error E = llvm::writeToOutput(Path, Write))
    return stageError("{}: cannot write: {}", Path.str(), llvm::toString(std::move(E)));
  return llvm::Error::success();
}

llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents) {
  return writeFileAtomically(Path, [&](llvm::raw_ostream &OS) {
    OS << Contents;
    return llvm::Error::success();
  });
}

} // namespace mlgo
