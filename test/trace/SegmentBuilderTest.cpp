// Segment derivation on a real recording of the bundled workload: every traced
// instruction is accounted for, and almost all of the binary's lie in mapped blocks.
#include "CodeImage.h"
#include "CollectorStream.h"
#include "SegmentBuilder.h"
#include "TestSupport.h"
#include "support/Error.h"

#include "llvm/Support/TargetSelect.h"

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
  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllDisassemblers();
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
