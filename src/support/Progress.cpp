/// \file
/// Progress line: redrawn at most every 100 ms, erased when the work ends.
#include "Progress.h"

#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <fmt/format.h>

namespace mlgo {

Progress::Progress(std::string Label, size_t Total, bool Show)
    : Label(std::move(Label)), Total(Total),
      Enabled(Show && llvm::sys::Process::StandardErrIsDisplayed()) {}

Progress::~Progress() { finish(); }

void Progress::advance(size_t N) {
  size_t Now = Done.fetch_add(N) + N;
  if (Enabled)
    draw(Now);
}

void Progress::draw(size_t Now) {
  std::lock_guard<std::mutex> Lock(DrawMutex);
  auto Time = std::chrono::steady_clock::now();
  if (Finished || (Now < Total && Time - LastDraw < std::chrono::milliseconds(100)))
    return;
  LastDraw = Time;
  llvm::errs() << fmt::format("\r{}: {}/{} ({:.0f}%)\x1b[K", Label, Now, Total,
                              Total ? 100.0 * Now / Total : 100.0);
  llvm::errs().flush();
}

void Progress::finish() {
  std::lock_guard<std::mutex> Lock(DrawMutex);
  if (Enabled && !Finished) {
    llvm::errs() << "\r\x1b[K";
    llvm::errs().flush();
  }
  Finished = true;
}

} // namespace mlgo
