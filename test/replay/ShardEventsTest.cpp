// A trace shard's events (replay/refill/ShardEvents.h, collected by ShardCollector): the runs kept around each window give the
// planner the spans the whole trace gives it.
#include "SpanTesting.h"
#include "replay/fast/ShardCollector.h"

#include <set>
#include <tuple>

using namespace mlgo;
using namespace mlgo::test;

namespace {

/// Windows of 8 events in every period of 64; a warm-up and a settling of 4 events of
/// 4 instructions, so runs reach 6 events before and after a window.
const SpanSettings Sharded{/*WarmUp=*/16, /*Settle=*/16, /*SampleEvery=*/64,
                          /*SampleLength=*/8};

/// One segment of 4 instructions that continues its block: never a misprediction.
const std::vector<SegmentTraceReader::SegmentName> Segments{{0, 0, 1, 4}};

/// The trace: two threads, taking turns in stretches of 37 events, 1500 events each.
struct Trace {
  std::vector<std::pair<uint32_t, uint64_t>> Order; ///< (thread, ordinal)

  Trace() {
    uint64_t Next[2] = {0, 0};
    for (unsigned Turn = 0; Next[0] < 1500 || Next[1] < 1500; ++Turn)
      for (unsigned I = 0; I < 37 && Next[Turn % 2] < 1500; ++I)
        Order.push_back({Turn % 2 + 1, Next[Turn % 2]++});
  }
  ShardEvents collect() const {
    ShardCollector Collector(Sharded, Segments);
    for (auto [Thread, Ordinal] : Order)
      Collector.add(Thread, {SegmentEvent::Segment, 0, 0, 4});
    return Collector.finish();
  }
};

/// Where the variant's code differs: now and then, on each thread at its own places.
bool differs(uint32_t Thread, uint64_t Ordinal) {
  return Ordinal % 13 == Thread || Ordinal % 29 == 5 || (Ordinal / 100) % 7 == Thread;
}

/// A span as the test compares it: its thread, events, which differ, warm-up, count.
using SpanKey = std::tuple<uint32_t, std::vector<uint64_t>, std::vector<bool>, uint32_t, uint32_t>;

std::vector<SpanKey> keys(const SpanPlanner &Planner, const std::vector<Span> &Spans) {
  std::vector<SpanKey> Out;
  for (const Span &S : Spans) {
    std::vector<bool> Differ;
    for (auto [InVariant, InReference] : S.Events)
      Differ.push_back(Planner.codes()[InVariant].Instructions[0].getOpcode() !=
                       Planner.codes()[InReference].Instructions[0].getOpcode());
    Out.push_back({S.Thread, S.Ordinals, Differ, S.WarmUp, S.Counted});
  }
  std::sort(Out.begin(), Out.end());
  return Out;
}

} // namespace

TEST_CASE("a shard keeps each window with a warm-up before it and a settling after",
          "[replay]") {
  Trace T;
  ShardEvents Shard = T.collect();
  CHECK(Shard.ThreadEvents == std::map<uint32_t, uint64_t>{{1, 1500}, {2, 1500}});
  std::map<uint32_t, uint64_t> LastEnd;
  std::map<uint32_t, std::set<uint64_t>> Kept;
  for (const ShardRun &Run : Shard.Runs) {
    REQUIRE(Run.End > Run.Begin);
    // Runs of a thread neither overlap nor touch: they would be one.
    if (LastEnd.count(Run.Thread))
      CHECK(Run.FirstEvent > LastEnd[Run.Thread]);
    LastEnd[Run.Thread] = Run.FirstEvent + (Run.End - Run.Begin);
    uint64_t FirstInWindow = UINT64_MAX;
    for (uint64_t O = Run.FirstEvent; O < LastEnd[Run.Thread]; ++O) {
      Kept[Run.Thread].insert(O);
      if (Sharded.inWindow(O) && FirstInWindow == UINT64_MAX)
        FirstInWindow = O;
    }
    REQUIRE(FirstInWindow != UINT64_MAX);
    // 150% of a 4-event warm-up before the window (or the thread's start) ...
    CHECK((Run.FirstEvent == 0 || FirstInWindow - Run.FirstEvent == 6));
    // ... and as much of the settling after the last window event.
    uint64_t LastInWindow = LastEnd[Run.Thread] - 1;
    while (!Sharded.inWindow(LastInWindow))
      --LastInWindow;
    CHECK((LastEnd[Run.Thread] - 1 - LastInWindow == 6 || LastEnd[Run.Thread] == 1500));
  }
  for (uint32_t Thread : {1u, 2u})
    for (uint64_t O = 0; O < 1500; ++O)
      if (Sharded.inWindow(O))
        CHECK(Kept[Thread].count(O));
  // A window of 8 and 12 events around it in a period of 64, at most.
  CHECK(Shard.Events.size() <= 2 * 1500 * 21 / 64 + 2 * 21);
}

TEST_CASE("a shard's runs give the planner the spans of the whole trace", "[replay]") {
  Planning P;
  Events E;
  Trace T;
  SpanPlanner Whole = P.planner(Sharded);
  for (auto [Thread, Ordinal] : T.Order)
    requireSuccess(Whole.onCode(Thread, E.event(Ordinal, differs(Thread, Ordinal))));
  Whole.finish();
  std::vector<Span> WholeSpans = Whole.takeSpans();

  ShardEvents Shard = T.collect();
  SpanPlanner FromShard = P.planner(Sharded);
  for (const ShardRun &Run : Shard.Runs) {
    FromShard.onSkip(Run.Thread, Run.FirstEvent);
    for (uint64_t O = Run.FirstEvent; O < Run.FirstEvent + (Run.End - Run.Begin); ++O)
      requireSuccess(FromShard.onCode(Run.Thread, E.event(O, differs(Run.Thread, O))));
  }
  for (auto [Thread, Count] : Shard.ThreadEvents)
    FromShard.onSkip(Thread, Count);
  FromShard.finish();
  std::vector<Span> ShardSpans = FromShard.takeSpans();

  REQUIRE(WholeSpans.size() > 20);
  CHECK(keys(FromShard, ShardSpans) == keys(Whole, WholeSpans));
  CHECK(FromShard.windows() == Whole.windows());
}

TEST_CASE("a shard event keeps a count of up to 2^48 instructions", "[replay]") {
  for (uint64_t Count : {uint64_t(0), uint64_t(4), uint64_t(1) << 32, (uint64_t(5) << 40) + 3})
    CHECK(ShardEvent({SegmentEvent::Unmapped, 3, 0, Count}, false).count() == Count);
  CHECK(ShardEvent({SegmentEvent::Unmapped, 3, 0, ~uint64_t(0)}, true).count() ==
        ShardEvent::MaxCount);
}
