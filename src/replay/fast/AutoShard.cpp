/// \file
/// The automatic shard: whether a trace is long enough for it, and its name.
#include "replay/fast/AutoShard.h"
#include "replay/fast/Sampling.h"

namespace mlgo {

bool AutoShard::fits(const std::map<uint32_t, uint64_t> &ThreadEvents) {
  uint64_t Windows = 0;
  for (const auto &[Thread, Events] : ThreadEvents)
    Windows += Events / Every;
  return Windows >= MinWindows;
}

std::string AutoShard::name() {
  SpanSettings Spans;
  sampleIn(Spans);
  return samplingName(Spans);
}

} // namespace mlgo
