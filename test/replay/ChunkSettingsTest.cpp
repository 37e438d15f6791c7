// Where exact replay cuts a long trace: from the trace's length and the chunk length
// alone, into chunks of equal length that cover it; a short trace is not cut.
#include "TestSupport.h"
#include "replay/fast/ChunkSettings.h"

using namespace mlgo;
using namespace mlgo::test;

TEST_CASE("a trace shorter than two chunks, or --chunk 0, is replayed whole", "[replay]") {
  ChunkSettings Settings;
  Settings.Instructions = 1000;
  CHECK(Settings.count(0) == 1);
  CHECK(Settings.count(1999) == 1);
  CHECK(Settings.count(2000) == 2);
  CHECK(Settings.count(2999) == 2);
  CHECK(Settings.count(3000) == 3);
  Settings.Instructions = 0;
  CHECK(Settings.count(uint64_t(1) << 40) == 1);
}

TEST_CASE("chunks are of equal length, at least --chunk, and cover the trace", "[replay]") {
  ChunkSettings Settings;
  Settings.Instructions = 1000;
  uint64_t Trace = 10999;
  uint64_t Count = Settings.count(Trace);
  REQUIRE(Count == 10);
  CHECK(ChunkSettings::start(0, Count, Trace) == 0);
  CHECK(ChunkSettings::start(Count, Count, Trace) == Trace);
  for (uint64_t C = 0; C < Count; ++C) {
    uint64_t Length =
        ChunkSettings::start(C + 1, Count, Trace) - ChunkSettings::start(C, Count, Trace);
    CHECK(Length >= 1099);
    CHECK(Length <= 1100);
  }
  // Far beyond 2^64 / Count as a product: no overflow.
  uint64_t Huge = uint64_t(1) << 62;
  Settings.Instructions = 1 << 20;
  uint64_t Many = Settings.count(Huge);
  CHECK(Many == uint64_t(1) << 42);
  CHECK(ChunkSettings::start(Many / 2, Many, Huge) == Huge / 2);
  CHECK(ChunkSettings::start(Many, Many, Huge) == Huge);
}

TEST_CASE("chunk settings that multiply the work are refused", "[replay]") {
  ChunkSettings Settings;
  requireSuccess(Settings.check()); // the defaults
  Settings.Instructions = 0;
  Settings.WarmUp = 1 << 20;
  requireSuccess(Settings.check()); // no chunks: the warm-up is unused
  Settings.Instructions = 10;
  CHECK(requireError(Settings.check()) ==
        "--chunk: 10 instructions is less than 4096: each chunk would cost more than its "
        "instructions (0: no chunks)");
  Settings.Instructions = 4096;
  CHECK(requireError(Settings.check()) ==
        "--chunk-warm-up: 1048576 instructions is more than 16 times the chunk's 4096: "
        "each chunk would simulate far more warm-up than it counts");
  Settings.WarmUp = 16 * 4096;
  requireSuccess(Settings.check());
}
