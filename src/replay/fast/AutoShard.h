/// \file
/// The automatic shard: the shard that fast replay tries first on a long trace
/// (ReplayOptions::AutoShard), and when it keeps it.
#pragma once

#include "replay/fast/SpanSettings.h"

#include <map>
#include <string>

namespace mlgo {

/// The shard, and the standard error of the speedup under which fast replay keeps it.
/// Four standard errors stay within issue 6's bound of 0.05 points; over 26 variants on
/// 50 M-instruction traces, the 6 shards kept erred at most 0.017 points, their replays
/// 10-82x faster than --exact (docs/fast-replay.md).
struct AutoShard {
  static constexpr uint64_t Length = 1024, Every = 16384;
  /// Fewer windows than this give too rough a standard error: the whole trace.
  static constexpr uint64_t MinWindows = 64;
  static constexpr double MaxErrorPoints = 0.0125;
  /// Whether a trace with these events per thread (TraceProfile::ThreadEvents) is
  /// long enough to try it.
  static bool fits(const std::map<uint32_t, uint64_t> &ThreadEvents);
  /// Makes \p Spans sample it.
  static void sampleIn(SpanSettings &Spans) {
    Spans.SampleLength = Length;
    Spans.SampleEvery = Every;
  }
  /// "1024/16384", as --sample spells it.
  static std::string name();
};

} // namespace mlgo
