/// \file
/// One warning line at a time: threads that replay or compile in parallel may warn at
/// once.
#include "Warning.h"

#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"
#include <mutex>

namespace mlgo {

namespace {

std::mutex Lock;
std::function<void(llvm::StringRef)> Sink;

} // namespace

void warn(llvm::StringRef Message) {
  std::lock_guard<std::mutex> Hold(Lock);
  if (Sink) {
    Sink(Message);
    return;
  }
  // A progress bar may hold the terminal's line: clear it first.
  if (llvm::sys::Process::StandardErrIsDisplayed())
    llvm::errs() << "\r\x1b[K";
  llvm::WithColor::warning(llvm::errs(), "mlgo-ra") << Message << "\n";
}

void setWarningSink(std::function<void(llvm::StringRef)> NewSink) {
  std::lock_guard<std::mutex> Hold(Lock);
  Sink = std::move(NewSink);
}

} // namespace mlgo
