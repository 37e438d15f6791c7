// The .bbtrace format: a recorded segment trace survives the round trip exactly, and
// damaged or foreign files are refused with the reason.
#include "CodeImage.h"
#include "SegmentBuilder.h"
#include "SegmentTrace.h"
#include "TestSupport.h"

#include "llvm/Support/FileSystem.h"

using namespace mlgo;
using namespace mlgo::test;

namespace {

struct Recorded {
  uint32_t Thread;
  SegmentEvent Event;
  bool operator==(const Recorded &O) const {
    return Thread == O.Thread && Event.What == O.Event.What && Event.Index == O.Event.Index &&
           Event.Offset == O.Event.Offset && Event.Count == O.Event.Count;
  }
};

/// Passes events to the writer and keeps a copy.
struct Tee : SegmentSink {
  SegmentTraceWriter *Writer;
  std::vector<Recorded> Events;
  llvm::Error onEvent(uint32_t Thread, const SegmentEvent &E) override {
    Events.push_back({Thread, E});
    return Writer->onEvent(Thread, E);
  }
};

std::vector<Recorded> readAll(SegmentTraceReader &R) {
  std::vector<Recorded> Events;
  Recorded Next{};
  while (requireOk(R.next(Next.Thread, Next.Event)))
    Events.push_back(Next);
  return Events;
}

/// A small hand-made trace of \p Binary: every segment once, on two threads.
std::string writeSmallTrace(const CodeImage &Image, const std::string &Path,
                            const SegmentTraceHeader &Header, bool Finish = true) {
  auto Writer = requireOk(SegmentTraceWriter::create(Path, Header));
  requireSuccess(Writer->defineModule(3, "/lib/libc.so.6"));
  for (uint32_t S = 0; S < Image.segments().size(); ++S)
    requireSuccess(Writer->onEvent(1 + S % 2, {SegmentEvent::Segment, S, 0,
                                               Image.segments()[S].NumInstructions}));
  requireSuccess(Writer->onEvent(1, {SegmentEvent::Unmapped, 3, 0, 1234}));
  requireSuccess(Writer->onEvent(2, {SegmentEvent::PartialSegment, 1, 4, 2}));
  requireSuccess(Writer->onEvent(2, {SegmentEvent::Padding, 0, 0, 3}));
  if (Finish)
    requireSuccess(Writer->finish());
  return Path;
}

CodeImage loadTestBinary(const std::string &Dir) {
  initializeTargets();
  writeFile(Dir + "/p.c", "int f(int x) { return x > 3 ? f(x - 1) * 2 : 1; }\n"
                          "int main(int argc, char **argv) { return f(argc + 5) & 1; }\n");
  CommandResult R = runShell(std::string(ClangPath) + " -O1 -fbasic-block-address-map "
                                                      "p.c -o p", Dir);
  REQUIRE(R.ExitCode == 0);
  return requireOk(CodeImage::loadBinary(Dir + "/p"));
}

} // namespace

TEST_CASE("a .bbtrace round-trips its header and events", "[trace]") {
  std::string Dir = makeTempDir("bbtrace");
  CodeImage Image = loadTestBinary(Dir);
  SegmentTraceHeader Header = describeImage(Image);
  writeSmallTrace(Image, Dir + "/t.bbtrace", Header);
  auto Reader = requireOk(SegmentTraceReader::open(Dir + "/t.bbtrace"));
  CHECK(Reader->header().Identity == Image.identity());
  CHECK(Reader->header().BinaryPath == Dir + "/p");
  REQUIRE(Reader->header().Functions.size() == Image.functions().size());
  CHECK(Reader->header().Functions[0].Key == Image.functions()[0].key());
  CHECK(Reader->segments().size() == Image.segments().size());
  std::vector<Recorded> Events = readAll(*Reader);
  REQUIRE(Events.size() == Image.segments().size() + 3);
  CHECK(Events[0] == Recorded{1, {SegmentEvent::Segment, 0, 0,
                                  Image.segments()[0].NumInstructions}});
  CHECK(Events.back() == Recorded{2, {SegmentEvent::Padding, 0, 0, 3}});
  CHECK(Reader->modules().at(3) == "/lib/libc.so.6");
  CHECK(Reader->instructions() == Image.totalInstructions() + 1234 + 2 + 3);
}

TEST_CASE("damaged and foreign .bbtrace files are refused", "[trace]") {
  std::string Dir = makeTempDir("bbtrace");
  CodeImage Image = loadTestBinary(Dir);
  SegmentTraceHeader Header = describeImage(Image);
  std::string Good = readFile(writeSmallTrace(Image, Dir + "/t.bbtrace", Header));

  // Cut anywhere, the file fails to open or fails before its end record.
  writeFile(Dir + "/cut.bbtrace", Good.substr(0, Good.size() - 6));
  std::string Message;
  auto Cut = SegmentTraceReader::open(Dir + "/cut.bbtrace");
  if (!Cut)
    Message = llvm::toString(Cut.takeError());
  while (Message.empty()) {
    uint32_t Thread;
    SegmentEvent E;
    auto More = (*Cut)->next(Thread, E);
    if (!More)
      Message = llvm::toString(More.takeError());
    else
      REQUIRE(*More);
  }
  CHECK_THAT(Message, Catch::StartsWith(Dir + "/cut.bbtrace: truncated") ||
                          Catch::StartsWith(Dir + "/cut.bbtrace: corrupt compressed data"));

  std::string OtherVersion = Good;
  OtherVersion[8] = 7;
  writeFile(Dir + "/v7.bbtrace", OtherVersion);
  CHECK(requireError(SegmentTraceReader::open(Dir + "/v7.bbtrace")) ==
        Dir + "/v7.bbtrace: .bbtrace version 7, this mlgo-ra reads version 1");
  CHECK(requireError(SegmentTraceReader::open(Dir + "/p")) ==
        Dir + "/p: not a .bbtrace file");
}

TEST_CASE("an unfinished .bbtrace leaves no file behind", "[trace]") {
  std::string Dir = makeTempDir("bbtrace");
  CodeImage Image = loadTestBinary(Dir);
  SegmentTraceHeader Header = describeImage(Image);
  writeSmallTrace(Image, Dir + "/t.bbtrace", Header, /*Finish=*/false);
  std::error_code EC;
  std::vector<std::string> Left;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
    if (llvm::StringRef(It->path()).contains(".bbtrace"))
      Left.push_back(It->path());
  CHECK(Left.empty());
}

#ifdef MLGO_TEST_VALGRIND_LIB_DIR
TEST_CASE("the workload's recorded segment trace is stored exactly and compactly",
          "[trace]") {
  initializeTargets();
  std::string Dir = makeTempDir("bbtrace-workload");
  REQUIRE(runShell(std::string(SourceDir) + "/examples/build-workload.sh " +
                   shellQuote(Dir + "/build")).ExitCode == 0);
  std::string Binary = Dir + "/build/workload";
  REQUIRE(runShell("VALGRIND_LIB=" + shellQuote(MLGO_TEST_VALGRIND_LIB_DIR) + " " +
                       shellQuote(MLGO_TEST_VALGRIND) +
                       " -q --tool=mlgotrace --mlgotrace-out=raw.bin " + shellQuote(Binary) +
                       " 0.25 >/dev/null",
                   Dir).ExitCode == 0);
  CodeImage Image = requireOk(CodeImage::loadBinary(Binary));
  SegmentTraceHeader Header = describeImage(Image);
  auto Writer = requireOk(SegmentTraceWriter::create(Dir + "/w.bbtrace", Header));
  Tee Sink;
  Sink.Writer = Writer.get();
  SegmentBuilder Builder(Image, Sink);
  auto Collector = requireOk(CollectorStreamReader::open(Dir + "/raw.bin"));
  requireSuccess(Collector->run(Builder));
  requireSuccess(Builder.finish());
  requireSuccess(Writer->finish());

  auto Reader = requireOk(SegmentTraceReader::open(Dir + "/w.bbtrace"));
  CHECK(readAll(*Reader) == Sink.Events);
  CHECK(Reader->instructions() == Collector->numInstructions());
  uint64_t Bytes = readFile(Dir + "/w.bbtrace").size();
  INFO(Bytes << " bytes for " << Collector->numInstructions() << " instructions");
  CHECK(Bytes * 1000000 < Collector->numInstructions() * uint64_t(1 << 20));
}
#endif
