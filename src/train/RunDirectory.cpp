/// \file
/// Checking, locking and logging a training directory.
#include "RunDirectory.h"
#include "Checkpoint.h"
#include "support/Error.h"
#include "support/InputFile.h"
#include "support/Json.h"
#include "support/OutputFile.h"
#include "support/Warning.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace mlgo {

namespace {

constexpr const char *LockFile = "lock";
constexpr const char *WorkDirectory = "work";

/// Everything a run writes into its directory, the files a user may care most about
/// first (they are named when train would overwrite them).
const char *const RunEntries[] = {TrainPolicyFile,     TrainBestPolicyFile, TrainChosenPolicyFile,
                                  TrainCheckpointFile, TrainLogFile,
                                  TrainShortlistFile,  TrainShortlistDirectory,
                                  "reward.svg",        "report.md",
                                  WorkDirectory,       LockFile};

} // namespace

llvm::Error checkRunDirectory(const std::string &Dir, bool Resume) {
  std::string CheckpointPath = Dir + "/" + TrainCheckpointFile;
  if (!llvm::sys::fs::exists(Dir)) {
    if (Resume)
      return inputError(CheckpointPath, "does not exist: nothing to resume");
    return llvm::Error::success();
  }
  if (!llvm::sys::fs::is_directory(Dir))
    return inputError(Dir, "is not a directory");
  if (llvm::sys::fs::exists(CheckpointPath)) {
    auto Value = readJsonFile(CheckpointPath);
    if (!Value)
      return Value.takeError();
    return checkCheckpointFormat(*Value, CheckpointPath);
  }
  llvm::StringSet<> Present;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    Present.insert(llvm::sys::path::filename(It->path()));
  if (EC)
    return inputError(Dir, "cannot list: {}", EC.message());
  if (Present.empty())
    return llvm::Error::success();
  llvm::StringSet<> Ours;
  for (const char *Name : RunEntries)
    Ours.insert(Name);
  bool OnlyOurs = llvm::all_of(Present.keys(), [&](llvm::StringRef Name) {
    return Ours.contains(Name);
  });
  if (OnlyOurs && Present.contains(LockFile))
    return llvm::Error::success();
  for (const char *Name : RunEntries)
    if (Present.contains(Name))
      return inputError(Dir + "/" + Name,
                        "would be overwritten: {} is not a training directory; train into "
                        "a new or empty directory",
                        Dir);
  return inputError(Dir, "is not empty and not a training directory; train into a new or "
                         "empty directory");
}

RunLock::RunLock(const std::string &Dir)
    : Fd(::open((Dir + "/" + LockFile).c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644)) {
  Held = Fd >= 0 && ::flock(Fd, LOCK_EX | LOCK_NB) == 0;
}

RunLock::~RunLock() {
  if (Fd >= 0)
    ::close(Fd);
}

llvm::Error truncateLog(const std::string &Path, uint64_t NextStep) {
  auto Buffer = readRegularFile(Path);
  if (!Buffer && NextStep == 0) {
    llvm::consumeError(Buffer.takeError());
    return llvm::Error::success(); // killed before its first record
  }
  if (!Buffer)
    return Buffer.takeError();
  std::string Kept;
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef Text = (*Buffer)->getBuffer();
  Text.split(Lines, '\n', -1, false);
  // A record is written with its newline: a last line without one that does not parse
  // is a record cut short (a full disk, a kill), whose step the run redoes.
  if (!Text.empty() && !Text.ends_with("\n") && !Lines.empty() &&
      !Json::accept(Lines.back().begin(), Lines.back().end())) {
    warn("{}: dropping its unfinished last line ({} bytes), a record cut short", Path,
         Lines.back().size());
    Lines.pop_back();
  }
  uint64_t Expected = 0, Number = 0;
  for (llvm::StringRef Line : Lines) {
    ++Number;
    Json Record = Json::parse(Line.begin(), Line.end(), nullptr, false);
    // A validation record (Validation.h) is kept while its steps are still the log's.
    if (Record.is_object() && Record.contains("validation")) {
      std::optional<uint64_t> Steps = findJsonField<uint64_t>(Record["validation"], "steps");
      if (!Steps)
        return inputError(Path, "line {} is not a validation record", Number);
      if (*Steps <= NextStep)
        Kept += Line.str() + "\n";
      continue;
    }
    // A native measurement (NativeMeasure.h) of an earlier end of the run is kept.
    if (Record.is_object() && Record.contains("native")) {
      Kept += Line.str() + "\n";
      continue;
    }
    auto Read = getJsonField<uint64_t>(Record, "step", Path);
    if (!Read) {
      llvm::consumeError(Read.takeError());
      return inputError(Path, "line {} is not a step record", Number);
    }
    uint64_t Step = *Read;
    if (Step != Expected)
      return inputError(Path, "line {} records step {}, not {}: the log is not the "
                              "checkpoint's",
                        Number, Step, Expected);
    if (Step < NextStep)
      Kept += Line.str() + "\n";
    ++Expected;
  }
  if (Expected < NextStep)
    return inputError(Path, "records {} steps, but the checkpoint is at step {}: the log "
                            "is not the checkpoint's",
                      Expected, NextStep);
  return writeFileAtomically(Path, Kept);
}

llvm::Error appendLine(const std::string &Path, const std::string &Line) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Append);
  if (EC)
    return stageError("{}: cannot write: {}", Path, EC.message());
  OS << Line << "\n";
  OS.close();
  if (OS.has_error())
    return stageError("{}: cannot write: {}", Path, OS.error().message());
  return llvm::Error::success();
}

llvm::Error appendRecord(const std::string &LogPath, const Json &Record) {
  auto Line = serializeJson(Record, LogPath, -1);
  if (!Line)
    return Line.takeError();
  return appendLine(LogPath, *Line);
}

} // namespace mlgo
