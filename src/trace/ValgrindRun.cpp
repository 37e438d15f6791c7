/// \file
/// Checking the program before Valgrind starts it, and summarizing Valgrind's log.
#include "ValgrindRun.h"
#include "support/Error.h"
#include "support/InputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include <fmt/format.h>

namespace mlgo {

namespace {

/// Why \p Path is not a regular file this process may execute, or an empty string.
std::string whyNotExecutable(llvm::StringRef Path) {
  auto Size = regularFileSize(Path);
  if (!Size) {
    std::string Why;
    llvm::handleAllErrors(
        Size.takeError(), [&](const InputError &E) { Why = E.what(); },
        [&](const llvm::ErrorInfoBase &E) { Why = E.message(); });
    return Why;
  }
  return llvm::sys::fs::can_execute(Path) ? "" : "not executable";
}

/// The interpreter of a "#!" script, or an empty string.
std::string interpreterOf(llvm::StringRef Path) {
  auto File = llvm::sys::fs::openNativeFileForRead(Path);
  if (!File)
    return (llvm::consumeError(File.takeError()), "");
  char Buf[256];
  auto Got = llvm::sys::fs::readNativeFile(*File, Buf);
  llvm::sys::fs::closeFile(*File);
  if (!Got)
    return (llvm::consumeError(Got.takeError()), "");
  llvm::StringRef Head(Buf, *Got);
  if (!Head.consume_front("#!"))
    return "";
  return Head.split('\n').first.trim().split(' ').first.str();
}

} // namespace

llvm::Expected<std::string> findRunnableProgram(llvm::StringRef Program) {
  std::string Path = Program.str();
  if (!Program.contains('/')) {
    auto Found = llvm::sys::findProgramByName(Program);
    if (!Found)
      return inputError(Program, "cannot run it: not found in PATH");
    Path = *Found;
  }
  std::string Why = whyNotExecutable(Path);
  if (Why.empty())
    if (std::string Interpreter = interpreterOf(Path); !Interpreter.empty())
      if (std::string Its = whyNotExecutable(Interpreter); !Its.empty())
        Why = fmt::format("its interpreter {}: {}", Interpreter, Its);
  if (!Why.empty())
    return inputError(Program, "cannot run it: {}", Why);
  return Path;
}

llvm::Expected<ValgrindLog> ValgrindLog::create() {
  llvm::SmallString<128> Path;
  if (std::error_code EC = llvm::sys::fs::createTemporaryFile("mlgo-ra-valgrind", "log", Path))
    return stageError("cannot create a temporary file: {}", EC.message());
  return ValgrindLog(std::string(Path));
}

ValgrindLog::~ValgrindLog() {
  if (!Path.empty())
    llvm::sys::fs::remove(Path);
}

std::string ValgrindLog::summary() const {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return "";
  llvm::StringRef Text = (*Buffer)->getBuffer();
  std::string First;
  size_t More = 0;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    // "==123== message": the prefix names Valgrind's process.
    for (llvm::StringRef Marker : {"==", "--", "**"})
      if (Line.starts_with(Marker)) {
        size_t End = Line.find(Marker, 2);
        if (End != llvm::StringRef::npos)
          Line = Line.drop_front(End + 2);
        break;
      }
    Line = Line.trim();
    if (Line.empty())
      continue;
    if (First.empty())
      First = Line.take_front(300).str();
    else
      ++More;
  }
  if (First.empty())
    return "";
  return More ? fmt::format("{} (and {} more line{})", First, More, More == 1 ? "" : "s")
              : First;
}

} // namespace mlgo
