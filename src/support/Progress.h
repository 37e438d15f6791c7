/// \file
/// A one-line progress counter on stderr, shown only when stderr is a terminal so that
/// logs and scripts see nothing. Thread-safe: workers call advance() concurrently.
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>

namespace mlgo {

class Progress {
public:
  /// \p Show false keeps it silent even on a terminal. A \p Total of 0 means that it
  /// is not known: the line shows the count so far, followed by \p Unit.
  Progress(std::string Label, size_t Total, bool Show = true, std::string Unit = "");
  ~Progress();
  void advance(size_t N = 1);
  /// Clears the line; called by the destructor.
  void finish();

private:
  void draw(size_t Done);

  std::string Label;
  size_t Total;
  std::string Unit;
  bool Enabled;
  bool Finished = false;
  std::atomic<size_t> Done{0};
  std::mutex DrawMutex;
  std::chrono::steady_clock::time_point LastDraw;
};

} // namespace mlgo
