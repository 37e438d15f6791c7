/// \file
/// Atomic output files: a uniquely named temporary beside the target, renamed into
/// place only when everything was written.
#include "OutputFile.h"
#include "Error.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include <atomic>

namespace mlgo {

std::string temporaryPathBeside(llvm::StringRef Path) {
  static std::atomic<uint64_t> Counter{0};
  return (Path + ".tmp-" + llvm::Twine(llvm::sys::Process::getProcessId()) + "-" +
          llvm::Twine(Counter++))
      .str();
}

llvm::Error writeFileAtomically(llvm::StringRef Path,
                                std::function<llvm::Error(llvm::raw_ostream &)> Write) {
  llvm::StringRef Parent = llvm::sys::path::parent_path(Path);
  if (!Parent.empty())
    if (std::error_code EC = llvm::sys::fs::create_directories(Parent))
      return stageError("{}: cannot create directory: {}", Parent.str(), EC.message());
  std::string TempPath = temporaryPathBeside(Path);
  int FD;
  if (std::error_code EC = llvm::sys::fs::openFileForWrite(
          TempPath, FD, llvm::sys::fs::CD_CreateNew, llvm::sys::fs::OF_None))
    return stageError("{}: cannot create: {}", TempPath, EC.message());
  llvm::sys::RemoveFileOnSignal(TempPath);
  llvm::Error Written = llvm::Error::success();
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    Written = Write(OS);
    OS.close();
    if (!Written && OS.has_error())
      Written = stageError("{}: cannot write: {}", Path.str(), OS.error().message());
    OS.clear_error(); // reported above; keeps the stream from aborting
  }
  std::error_code Renamed;
  if (!Written)
    Renamed = llvm::sys::fs::rename(TempPath, Path);
  if (Written || Renamed)
    llvm::sys::fs::remove(TempPath);
  llvm::sys::DontRemoveFileOnSignal(TempPath);
  if (Renamed)
    return stageError("{}: cannot rename into place: {}", Path.str(), Renamed.message());
  return Written;
}

llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents) {
  return writeFileAtomically(Path, [&](llvm::raw_ostream &OS) {
    OS << Contents;
    return llvm::Error::success();
  });
}

NewOutputDirectory::NewOutputDirectory(std::string Path)
    : Path(std::move(Path)), Existed(llvm::sys::fs::exists(this->Path)) {}

NewOutputDirectory::~NewOutputDirectory() {
  if (!Kept && !Existed)
    llvm::sys::fs::remove_directories(Path, /*IgnoreErrors=*/true);
}

} // namespace mlgo
