/// \file
/// The events of a trace shard (--sample) that fast replay reads, kept in memory. On a
/// shard, spans open only inside its windows (replay/fast/SpanPlan.h), so an event far
/// from every window can be in no span: only the warm-up before a window, the window
/// and the settling after it matter. Collected once per trace and shard
/// (replay/fast/ShardCollector.h: a pass over the trace, its branch predictor run
/// once), they let every variant's replay read a tenth of the trace or less instead of
/// all of it (refillShard): a training evaluation costs about what its shard simulates.
#pragma once

#include "trace/SegmentEvent.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

namespace mlgo {

/// A trace event as the shard keeps it, with its misprediction mark: 16 bytes, as a
/// shard of a long trace holds tens of millions.
struct ShardEvent {
  uint32_t Index, Offset;
  uint32_t CountLow;
  uint16_t CountHigh; ///< a count of up to 2^48 instructions (an unmapped stretch)
  SegmentEvent::Kind What;
  bool Mispredicted; ///< RefilledCode::Mispredicted

  ShardEvent(const SegmentEvent &E, bool Mispredicted)
      : Index(E.Index), Offset(E.Offset), CountLow(uint32_t(E.Count)),
        CountHigh(uint16_t(std::min<uint64_t>(E.Count, MaxCount) >> 32)), What(E.What),
        Mispredicted(Mispredicted) {
    if (E.Count > MaxCount)
      CountLow = uint32_t(MaxCount);
  }
  uint64_t count() const { return uint64_t(CountHigh) << 32 | CountLow; }
  SegmentEvent event() const { return {What, Index, Offset, count()}; }
  static constexpr uint64_t MaxCount = (uint64_t(1) << 48) - 1;
};
static_assert(sizeof(ShardEvent) == 16);

/// Consecutive events of one thread, Events[Begin, End), the first of ordinal
/// FirstEvent among the thread's events.
struct ShardRun {
  uint32_t Thread;
  uint64_t FirstEvent;
  size_t Begin, End;
};

struct ShardEvents {
  std::vector<ShardEvent> Events;
  /// One thread's runs never touch (they would be one).
  std::vector<ShardRun> Runs;
  /// Per thread, how many events it has in the whole trace.
  std::map<uint32_t, uint64_t> ThreadEvents;
};

} // namespace mlgo
