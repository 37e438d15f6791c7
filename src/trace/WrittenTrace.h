/// \file
/// The summary that trace record and trace import give of the .bbtrace they wrote.
#pragma once

#include "SegmentTrace.h"
#include "Trace.h"
#include "support/Stopwatch.h"

#include "llvm/Support/FileSystem.h"
#include <chrono>

namespace mlgo {

/// What \p Writer (finished) wrote to \p Path, and the seconds since \p Start.
inline WrittenTrace describeWrittenTrace(const SegmentTraceWriter &Writer,
                                         llvm::StringRef Path,
                                         std::chrono::steady_clock::time_point Start) {
  WrittenTrace W;
  W.Instructions = Writer.instructions();
  W.Events = Writer.events();
  llvm::sys::fs::file_size(Path, W.Bytes);
  W.Seconds = secondsSince(Start);
  return W;
}

} // namespace mlgo
