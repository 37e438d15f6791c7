/// \file
/// What summarizeTrace (trace show) counts, one event at a time: a caller that reads a
/// trace's events for something else can summarize it in the same pass.
#pragma once

#include "SegmentTrace.h"
#include "Trace.h"

#include <map>
#include <vector>

namespace mlgo {

class TraceSummarizer {
public:
  explicit TraceSummarizer(const SegmentTraceReader &Reader);
  /// Counts an event \p Reader returned.
  void onEvent(uint32_t Thread, const SegmentEvent &E);
  /// The summary with the \p Top hottest functions and blocks, once the reader has read
  /// the end record.
  TraceSummary finish(size_t Top);

private:
  const SegmentTraceReader &Reader;
  TraceSummary S;
  std::vector<uint64_t> PerSegment;
  std::map<uint32_t, uint64_t> UnmappedById;
};

} // namespace mlgo
