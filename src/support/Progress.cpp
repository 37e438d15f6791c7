/// \file
/// Progress line: redrawn at most every 100 ms, erased when the work ends.
#include "Progress.h"

#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <fmt/format.h>

namespace mlgo {

Progress::Progress(std::string Label, size_t Total, bool Show, std::string Unit)
    : Label(std::move(Label)), Total(Total), Unit(std::move(Unit)),
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
  if (Finished || ((Total == 0 || Now < Total) &&
                   Time - LastDraw < std::chrono::milliseconds(100)))
    return;
  LastDraw = Time;
  if (Total == 0)
    llvm::errs() << fmt::format("\r{}: {}{}{}\x1b[K", Label,
                                Now >= 10000000 ? fmt::format("{} M", Now / 1000000)
                                                : std::to_string(Now),
                                Unit.empty() ? "" : " ", Unit);
  else
    llvm::errs() << fmt::format("\r{}: {}/{} ({:.0f}%)\x1b[K", Label, Now, Total,
                                100.0 * Now / Total);
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
