/// \file
/// One pass over a whole .bbtrace by a counter of events (TraceSummarizer,
/// TraceProfiler): made on the opened reader, fed each event, finished at the end.
#pragma once

#include "SegmentTrace.h"

#include <utility>

namespace mlgo {

/// Reads the trace at \p Path to its end with a \p PassT and returns what its
/// finish(\p Args...) makes.
template <typename PassT, typename... ArgTs>
auto runTracePass(llvm::StringRef Path, ArgTs... Args)
    -> llvm::Expected<decltype(std::declval<PassT &>().finish(Args...))> {
  auto Reader = SegmentTraceReader::open(Path);
  if (!Reader)
    return Reader.takeError();
  PassT Pass(**Reader);
  if (llvm::Error Err = forEachEvent(**Reader, [&](uint32_t Thread, const SegmentEvent &E) {
        Pass.onEvent(Thread, E);
        return llvm::Error::success();
      }))
    return Err;
  return Pass.finish(Args...);
}

} // namespace mlgo
