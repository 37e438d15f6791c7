/// \file
/// Collecting a shard's events: one pass over the trace, a few per thread in hand.
#include "replay/fast/ShardCollector.h"
#include "replay/refill/BranchPredictor.h"

#include <deque>

namespace mlgo {

/// One thread's collection: the events since its last run (up to the warm-up's margin)
/// and its open run, kept apart until it ends, so that runs of several threads do not
/// interleave.
struct ShardCollector::Thread {
  ThreadTransfers Transfers;
  uint64_t Ordinal = 0;
  std::deque<ShardEvent> Recent;
  uint64_t RecentFirst = 0, RecentInstructions = 0;
  std::vector<ShardEvent> Run; ///< open when not empty
  uint64_t RunFirst = 0;
  /// Inside a window, or settling after one: events go to Run, not to Recent.
  bool Appending = false;
  uint64_t Settled = 0; ///< instructions since the window ended
};

namespace {
/// What a refill hands over of \p E: unmapped instructions that are only counted make
/// no warm-up.
uint64_t handedOver(const ShardEvent &E) {
  return E.What == SegmentEvent::Unmapped ? 0 : E.count();
}
} // namespace

ShardCollector::ShardCollector(const SpanSettings &Spans,
                               const std::vector<SegmentTraceReader::SegmentName> &Segments)
    : Spans(Spans), Segments(Segments), WarmUp(Spans.WarmUp * ShardMarginPercent / 100),
      Settle(Spans.Settle * ShardMarginPercent / 100) {}

ShardCollector::~ShardCollector() = default;

void ShardCollector::flush(uint32_t Id, Thread &T) {
  if (T.Run.empty())
    return;
  Out.Runs.push_back({Id, T.RunFirst, Out.Events.size(), Out.Events.size() + T.Run.size()});
  Out.Events.insert(Out.Events.end(), T.Run.begin(), T.Run.end());
  T.Run.clear();
}

void ShardCollector::add(uint32_t Id, const SegmentEvent &E) {
  Thread &T = Threads[Id];
  uint64_t Ordinal = T.Ordinal++;
  ShardEvent Kept(E, T.Transfers.mispredictedInto(E, Segments));
  if (Spans.inWindow(Ordinal)) {
    if (!T.Appending) {
      // A window begins: its warm-up is in Recent, which continues the open run unless
      // events were dropped between them.
      if (!T.Run.empty() && T.RunFirst + T.Run.size() != T.RecentFirst)
        flush(Id, T);
      if (T.Run.empty())
        T.RunFirst = T.RecentFirst;
      T.Run.insert(T.Run.end(), T.Recent.begin(), T.Recent.end());
      T.Recent.clear();
      T.RecentInstructions = 0;
      T.Appending = true;
    }
    T.Settled = 0;
    T.Run.push_back(Kept);
  } else if (T.Appending) {
    T.Run.push_back(Kept);
    T.Settled += handedOver(Kept);
    T.Appending = T.Settled < Settle;
  } else {
    T.Recent.push_back(Kept);
    T.RecentInstructions += handedOver(Kept);
    while (T.Recent.size() > 1 &&
           T.RecentInstructions - handedOver(T.Recent.front()) >= WarmUp) {
      T.RecentInstructions -= handedOver(T.Recent.front());
      T.Recent.pop_front();
      ++T.RecentFirst;
    }
  }
  if (T.Appending || T.Recent.empty())
    T.RecentFirst = T.Ordinal; // Recent starts with the next event
}

ShardEvents ShardCollector::finish() {
  for (auto &[Id, T] : Threads) {
    flush(Id, T);
    Out.ThreadEvents[Id] = T.Ordinal;
  }
  return std::move(Out);
}

llvm::Expected<ShardEvents> collectShardEvents(llvm::StringRef TracePath,
                                               const SpanSettings &Spans) {
  auto Reader = SegmentTraceReader::open(TracePath);
  if (!Reader)
    return Reader.takeError();
  ShardCollector Collector(Spans, (*Reader)->segments());
  llvm::Error Err = forEachEvent(**Reader, [&](uint32_t Thread, const SegmentEvent &E) {
    Collector.add(Thread, E);
    return llvm::Error::success();
  });
  if (Err)
    return Err;
  return Collector.finish();
}

} // namespace mlgo
