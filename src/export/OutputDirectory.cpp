/// \file
/// Whole-directory output: write to <dir>.tmp-<pid>, then rename into place.
#include "OutputDirectory.h"

#include "support/Error.h"
#include "support/OutputFile.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

namespace mlgo {
namespace {

namespace fs = llvm::sys::fs;

/// Checks that \p Dir does not exist, or is an earlier export that may be replaced.
llvm::Error checkReplaceable(const std::string &Dir,
                             const std::vector<GeneratedFile> &Files,
                             const std::vector<std::string> &Derived) {
  fs::file_status Status;
  if (fs::status(Dir, Status))
    return llvm::Error::success(); // absent, or unreachable: creating it will tell
  if (!fs::is_directory(Status))
    return inputError(Dir, "exists and is not a directory");
  llvm::StringSet<> Ours;
  for (const GeneratedFile &F : Files)
    Ours.insert(llvm::StringRef(F.Path).split('/').first);
  for (const std::string &Name : Derived)
    Ours.insert(Name);
  std::error_code EC;
  for (fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (!Ours.contains(Name))
      return inputError(Dir,
                        "exists and holds '{}', which export does not write; not "
                        "replacing it",
                        Name.str());
  }
  if (EC)
    return inputError(Dir, "cannot list: {}", EC.message());
  return llvm::Error::success();
}

} // namespace

std::string directoryPath(llvm::StringRef Dir) {
  return Dir.size() > 1 ? Dir.rtrim('/').str() : Dir.str();
}

llvm::Error writeDirectoryAtomically(llvm::StringRef DirArg,
                                     const std::vector<GeneratedFile> &Files,
                                     const std::vector<std::string> &Derived) {
  // "out/" must not put the temporary directory inside "out".
  std::string Dir = directoryPath(DirArg);
  if (llvm::Error E = checkReplaceable(Dir, Files, Derived))
    return E;
  std::string Pid = std::to_string(llvm::sys::Process::getProcessId());
  std::string Temp = Dir + ".tmp-" + Pid, Old = Dir + ".old-" + Pid;
  fs::remove_directories(Temp); // left by a killed run that had our pid
  if (std::error_code EC = fs::create_directories(Temp))
    return inputError(Dir, "cannot create: {}", EC.message());
  for (const GeneratedFile &F : Files)
    if (llvm::Error E = writeFileAtomically(Temp + "/" + F.Path, F.Contents)) {
      fs::remove_directories(Temp);
      return inputError(Dir, "cannot write {}: {}", F.Path, llvm::toString(std::move(E)));
    }
  // A directory cannot be renamed over a non-empty one: move the old export aside
  // first, and back if the new one cannot take its place.
  bool Replacing = fs::exists(Dir);
  std::error_code EC;
  if (Replacing && (EC = fs::rename(Dir, Old))) {
    fs::remove_directories(Temp);
    return inputError(Dir, "cannot replace the earlier export: {}", EC.message());
  }
  if ((EC = fs::rename(Temp, Dir))) {
    if (Replacing)
      fs::rename(Old, Dir);
    fs::remove_directories(Temp);
    return inputError(Dir, "cannot rename {} into place: {}", Temp, EC.message());
  }
  if (Replacing)
    fs::remove_directories(Old);
  return llvm::Error::success();
}

} // namespace mlgo
