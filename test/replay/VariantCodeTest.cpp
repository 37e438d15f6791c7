// Matching a variant's blocks to a trace's by ID: IDs come from files (the trace header,
// the variant's BB address map) and may take any 32-bit value.
#include "TestSupport.h"
#include "code/CodeImage.h"
#include "replay/refill/VariantCode.h"
#include "trace/SegmentTrace.h"

using namespace mlgo;
using namespace mlgo::test;

TEST_CASE("block IDs that hash tables reserve are matched as any other", "[replay]") {
  initializeTargets();
  std::string Dir = makeTempDir("variant-code");
  writeFile(Dir + "/p.c", "int f(int x) { return x > 3 ? f(x - 1) * 2 : 1; }\n"
                          "int main(int argc, char **argv) { return f(argc + 5) & 1; }\n");
  REQUIRE(runShell(std::string(ClangPath) + " -O1 -fbasic-block-address-map p.c -o p", Dir)
              .ExitCode == 0);
  CodeImage Image = requireOk(CodeImage::loadBinary(Dir + "/p"));
  SegmentTraceHeader Header = describeImage(Image);
  std::vector<SegmentTraceReader::SegmentName> Segments;
  for (uint32_t F = 0; F < Header.Functions.size(); ++F)
    for (uint32_t B = 0; B < Header.Functions[F].Blocks.size(); ++B)
      for (uint32_t S = 0; S < Header.Functions[F].Blocks[B].SegmentInstructions.size(); ++S)
        Segments.push_back({F, B, S, Header.Functions[F].Blocks[B].SegmentInstructions[S]});
  std::vector<bool> All(Header.Functions.size(), true);
  CHECK(VariantCode::match(Header, Segments, All, Image, nullptr).mismatches().empty());

  // llvm::DenseMap<uint32_t> reserves ~0 and ~0 - 1: looking either up crashed.
  for (uint32_t ID : {0xffffffffu, 0xfffffffeu}) {
    SegmentTraceHeader Changed = Header;
    Changed.Functions[0].Blocks[0].ID = ID;
    VariantCode Code = VariantCode::match(Changed, Segments, All, Image, nullptr);
    REQUIRE(Code.mismatches().size() == 1);
    CHECK(Code.mismatches()[0].Reason == "CFG changed: no block " + std::to_string(ID));
  }
}
