/// \file
/// Fuzzes the .bbtrace reader, all versions and the version 3 load section. One pass
/// over an input's events, read from memory, feeds what `trace show` (summary and
/// --events) and replay's profile make of them, and their totals must agree. With
/// MLGO_FUZZ_WRITE_SEED=DIR it writes small traces of each version to DIR and exits.
#include "FuzzInput.h"
#include "SegmentTrace.h"
#include "TraceEventLine.h"
#include "TraceProfiler.h"
#include "TraceSummarizer.h"

#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <numeric>

using namespace mlgo;

namespace {

/// Events read per input at most. Zstd makes a few bytes into millions of events, each
/// checked as the first ones were; past this, an input only costs time.
constexpr uint64_t MaxEvents = 4096;

void require(bool Holds) {
  if (!Holds)
    std::abort();
}

/// Traces of every version with every record kind: threads, whole, partial and padding
/// segments, modules, unmapped counts, code chunks, load dependences.
void writeSeeds(const std::string &Dir) {
  SegmentTraceHeader Header{"build-id", "/bin/p",
                            {{"main", {{0, {3, 2}}, {1, {4}}}}, {"f", {{0, {1}}}}}};
  for (int Version = 1; Version <= 3; ++Version) {
    std::string Path = Dir + "/v" + std::to_string(Version) + ".bbtrace";
    auto Writer = SegmentTraceWriter::create(Path, Header, Version >= 2, Version == 3);
    if (!Writer)
      std::abort();
    SegmentTraceWriter &W = **Writer;
    bool Ok = !W.defineModule(1, "/lib/libc.so.6") &&
              !W.onEvent(1, {SegmentEvent::Segment, 0, 0, 3}) &&
              !W.onEvent(1, {SegmentEvent::PartialSegment, 1, 4, 1}) &&
              !W.onEvent(1, {SegmentEvent::Padding, 2, 0, 2}) &&
              !W.onEvent(2, {SegmentEvent::Unmapped, 1, 0, 40}) &&
              !W.onEvent(2, {SegmentEvent::Segment, 3, 0, 1});
    if (Version >= 2)
      Ok = Ok && !W.onCodeChunk({0, 1, 0x7000, {1, 3}, {0x90, 0x48, 0x89, 0xc3}}) &&
           !W.onEvent(1, {SegmentEvent::UnmappedCode, 0, 0, 2});
    if (Version == 3)
      W.setLoadDependences({{0, {{10, 3}}}, {2, {{4, 0}, {4, 4}}}});
    if (!Ok || W.finish())
      std::abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  if (const char *Dir = std::getenv("MLGO_FUZZ_WRITE_SEED")) {
    writeSeeds(Dir);
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  auto Reader = SegmentTraceReader::openBytes(
      "input.bbtrace", llvm::StringRef(reinterpret_cast<const char *>(Data), Size));
  if (!Reader) {
    llvm::consumeError(Reader.takeError());
    return 0;
  }
  SegmentTraceReader &R = **Reader;
  TraceSummarizer Summarizer(R);
  TraceProfiler Profiler(R);
  std::string Line;
  llvm::raw_string_ostream Lines(Line);
  uint64_t Events = 0;
  llvm::Error Err = forEachEvent(R, [&](uint32_t Thread, const SegmentEvent &E) -> llvm::Error {
    if (++Events > MaxEvents)
      return llvm::createStringError("long enough");
    Summarizer.onEvent(Thread, E);
    Profiler.onEvent(Thread, E);
    Line.clear();
    printTraceEvent(R, Thread, E, Lines);
    return llvm::Error::success();
  });
  if (Err) {
    llvm::consumeError(std::move(Err));
    return 0;
  }
  // A whole trace: the end record's totals held, and every view counts them alike.
  TraceSummary S = Summarizer.finish(10);
  TraceProfile P = Profiler.finish();
  uint64_t ThreadEvents = 0, ThreadInstructions = 0, FunctionInstructions = 0;
  for (const auto &[Thread, N] : P.ThreadEvents)
    ThreadEvents += N;
  for (const auto &[Thread, N] : S.InstructionsByThread)
    ThreadInstructions += N;
  FunctionInstructions =
      std::accumulate(P.FunctionInstructions.begin(), P.FunctionInstructions.end(), uint64_t(0));
  require(S.Instructions == R.instructions() && P.Instructions == R.instructions());
  require(S.Events == Events && ThreadEvents == Events);
  require(ThreadInstructions == S.Instructions);
  require(S.MappedInstructions + P.UnmappedInstructions == S.Instructions);
  require(FunctionInstructions == S.MappedInstructions);
  require(S.UnmappedCodeInstructions == P.UnmappedCodeInstructions);
  require(P.HasLoadDependences == R.hasLoadDependences());
  for (const SegmentLoads &L : P.Loads)
    require(L.Segment < P.Segments.size());
  return 0;
}
