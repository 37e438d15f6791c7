// Segment derivation on a real recording of the bundled workload: every traced
// instruction is accounted for, and almost all of the binary's lie in mapped blocks.
// And on made-up runs of a real binary's code.
#include "CollectorStream.h"
#include "ImportTestProgram.h"
#include "RunSynthesizer.h"
#include "SegmentBuilder.h"
#include "TestSupport.h"
#include "code/CodeImage.h"
#include "support/Error.h"


using namespace mlgo;
using namespace mlgo::test;

#ifdef MLGO_TEST_VALGRIND_LIB_DIR
namespace {

struct Totals : SegmentSink {
  const CodeImage *Image = nullptr;
  std::map<SegmentEvent::Kind, uint64_t> Instructions;
  std::map<uint32_t, uint64_t> UnmappedByModule;
  std::map<uint32_t, uint64_t> PerThread;
  uint64_t Events = 0;
  llvm::Error onEvent(uint32_t ThreadId, const SegmentEvent &E) override {
    uint64_t N = E.What == SegmentEvent::Segment
                     ? Image->segments()[E.Index].NumInstructions // from the binary
                     : E.Count;
    if (E.What == SegmentEvent::Segment && E.Count != N)
      return stageError("segment {} counted {} of {}", E.Index, E.Count, N);
    Instructions[E.What] += N;
    PerThread[ThreadId] += N;
    if (E.What == SegmentEvent::Unmapped)
      UnmappedByModule[E.Index] += N;
    ++Events;
    return llvm::Error::success();
  }
};

} // namespace

TEST_CASE("the workload's segment trace accounts for every traced instruction",
          "[trace]") {
  initializeTargets();
  std::string Dir = makeTempDir("segments");
  CommandResult Built = runShell(std::string(SourceDir) + "/examples/build-workload.sh " +
                                 shellQuote(Dir + "/build"));
  INFO(Built.Output);
  REQUIRE(Built.ExitCode == 0);
  std::string Binary = Dir + "/build/workload";
  CommandResult Traced = runShell(
      "VALGRIND_LIB=" + shellQuote(MLGO_TEST_VALGRIND_LIB_DIR) + " " +
          shellQuote(MLGO_TEST_VALGRIND) +
          " -q --tool=mlgotrace --mlgotrace-out=trace.bin " + shellQuote(Binary) + " 0.25",
      Dir);
  INFO(Traced.Output);
  REQUIRE(Traced.ExitCode == 0);

  CodeImage Image = requireOk(CodeImage::loadBinary(Binary));
  auto Reader = requireOk(CollectorStreamReader::open(Dir + "/trace.bin"));
  Totals Sink;
  Sink.Image = &Image;
  SegmentBuilder Builder(Image, Sink);
  requireSuccess(Reader->run(Builder));
  requireSuccess(Builder.finish());

  uint64_t Total = 0;
  for (auto &[Kind, N] : Sink.Instructions)
    Total += N;
  CHECK(Total == Reader->numInstructions());
  CHECK(Sink.PerThread.size() == 1);
  // Nothing entered or left a segment in the middle: calls return to segment starts.
  CHECK(Sink.Instructions[SegmentEvent::PartialSegment] == 0);
  // The binary's own instructions outside any block (PLT stubs, startup code) stay
  // below 0.5%. Executed alignment padding (nops before aligned loop headers, about 1%
  // here) counts for the block before it.
  uint64_t InBinary = Sink.Instructions[SegmentEvent::Segment] +
                      Sink.Instructions[SegmentEvent::Padding] +
                      Sink.UnmappedByModule[Builder.binaryModule()];
  uint64_t Outside = Sink.UnmappedByModule[Builder.binaryModule()];
  CHECK(Sink.Instructions[SegmentEvent::Padding] > 0);
  INFO("binary " << InBinary << ", outside blocks " << Outside << ", padding "
                  << Sink.Instructions[SegmentEvent::Padding]);
  CHECK(Outside * 200 < InBinary);
  CHECK(Sink.Instructions[SegmentEvent::Segment] > 5000000);
}
#endif

namespace {

struct EventList : SegmentSink {
  std::vector<Event> Events;
  llvm::Error onEvent(uint32_t ThreadId, const SegmentEvent &E) override {
    Events.emplace_back(ThreadId, E.What, E.Index, E.Offset, E.Count);
    return llvm::Error::success();
  }
};

} // namespace

TEST_CASE("a segment that ran whole but counted otherwise stays partial", "[trace]") {
  TestProgram Program = TestProgram::build(makeTempDir("counted-otherwise"));
  Plan P{1, 1, 0, {}, {}};
  Program.runFunction(P, "square");
  REQUIRE(P.Expected.size() == 1);
  auto [Thread, Kind, Segment, Offset, Count] = P.Expected[0];
  REQUIRE(Count >= 2);
  // As Valgrind reports a client request: two instructions as one.
  P.Steps[0].Length += P.Steps[1].Length;
  P.Steps.erase(P.Steps.begin() + 1);

  EventList Sink;
  SegmentBuilder Builder(Program.image(), Sink);
  RunSynthesizer Runs(Builder);
  requireSuccess(Builder.onModule({1, true, 0, 0, 0, Program.path()}));
  Runs.addModuleRange(0, UINT64_MAX, 1);
  for (const Step &S : P.Steps)
    requireSuccess(Runs.addInstruction(1, S.Address, S.Length));
  requireSuccess(Runs.flush());
  requireSuccess(Builder.finish());
  CHECK(Sink.Events ==
        std::vector<Event>{{1, SegmentEvent::PartialSegment, Segment, 0, Count - 1}});
}
