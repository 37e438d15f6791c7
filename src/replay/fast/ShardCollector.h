/// \file
/// Collecting a shard's events (replay/refill/ShardEvents.h): per thread, each window of
/// the shard with the events before it that hold a warm-up and those after it that hold
/// a settling, with a margin.
#pragma once

#include "replay/fast/SpanSettings.h"
#include "replay/refill/ShardEvents.h"
#include "trace/SegmentTrace.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <map>

namespace mlgo {

/// How much of the warm-up and the settling a run holds, in the trace's instructions: a
/// variant with half again as many instructions as the trace in them (spill code)
/// still finds what the whole trace would give its spans.
constexpr uint64_t ShardMarginPercent = 150;

/// Keeps, per thread, the events of each window of a shard with the events before it
/// that hold ShardMarginPercent of the warm-up's instructions and those after it that
/// hold as much of the settling's; marks mispredictions as refillTrace does.
class ShardCollector {
public:
  /// \p Spans must sample; \p Segments: the trace's.
  ShardCollector(const SpanSettings &Spans,
                 const std::vector<SegmentTraceReader::SegmentName> &Segments);
  ~ShardCollector();
  /// The next event of \p Thread.
  void add(uint32_t Thread, const SegmentEvent &E);
  /// The events kept, once every event was added.
  ShardEvents finish();

private:
  struct Thread;
  void flush(uint32_t Id, Thread &T);

  SpanSettings Spans;
  const std::vector<SegmentTraceReader::SegmentName> &Segments;
  uint64_t WarmUp, Settle; ///< with their margin
  std::map<uint32_t, Thread> Threads;
  ShardEvents Out;
};

/// A ShardCollector over the trace at \p TracePath, to its end.
llvm::Expected<ShardEvents> collectShardEvents(llvm::StringRef TracePath,
                                               const SpanSettings &Spans);

/// Whether a shard collected for \p Collected serves a replay with \p Wanted: the same
/// shard, warm-up and settling.
inline bool sameShard(const SpanSettings &Collected, const SpanSettings &Wanted) {
  return Collected.SampleEvery == Wanted.SampleEvery &&
         Collected.SampleLength == Wanted.SampleLength &&
         Collected.WarmUp == Wanted.WarmUp && Collected.Settle == Wanted.Settle;
}

} // namespace mlgo
