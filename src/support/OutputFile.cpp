/// \file
/// Atomic output files: a uniquely named temporary beside the target, renamed into
/// place only when everything was written.
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
  auto Temp = llvm::sys::fs::TempFile::create(Path + ".tmp-%%%%%%%%");
  if (!Temp)
    return stageError("{}: cannot create: {}", Path.str(), llvm::toString(Temp.takeError()));
  llvm::Error Written = llvm::Error::success();
  {
    llvm::raw_fd_ostream OS(Temp->FD, /*shouldClose=*/false);
    Written = Write(OS);
    OS.flush();
    if (!Written && OS.has_error())
      Written = stageError("{}: cannot write: {}", Path.str(), OS.error().message());
    OS.clear_error(); // reported above; keeps the stream from aborting
  }
  if (Written) {
    llvm::consumeError(Temp->discard());
    return Written;
  }
  if (llvm::Error E = Temp->keep(Path))
    return stageError("{}: cannot rename into place: {}", Path.str(),
                      llvm::toString(std::move(E)));
  return llvm::Error::success();
}

llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents) {
  return writeFileAtomically(Path, [&](llvm::raw_ostream &OS) {
    OS << Contents;
    return llvm::Error::success();
  });
}

} // namespace mlgo
