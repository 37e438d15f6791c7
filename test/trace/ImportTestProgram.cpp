/// \file
/// The import tests' program and made-up executions.
#include "ImportTestProgram.h"
#include "SegmentTrace.h"
#include "TestSupport.h"

#include "llvm/ADT/StringExtras.h"

namespace mlgo::test {

TestProgram TestProgram::build(const std::string &Dir, const std::string &ExtraFlags) {
  initializeTargets();
  writeFile(Dir + "/app.c",
            "#include <stdio.h>\n"
            "static __attribute__((noinline)) int square(int x) { return x * x; }\n"
            "int main(int argc, char **argv) {\n"
            "  int s = 0;\n"
            "  for (int i = 0; i < argc * 100; ++i)\n"
            "    s += (square(i) & 7) ? i : 1;\n"
            "  printf(\"%d\\n\", s);\n"
            "  return 0;\n"
            "}\n");
  CommandResult R = runShell(std::string(ClangPath) + " -O2 -fbasic-block-address-map " +
                                 ExtraFlags + " app.c -o app",
                             Dir);
  INFO(R.Output);
  REQUIRE(R.ExitCode == 0);
  TestProgram P;
  P.Path = Dir + "/app";
  P.Image = std::make_shared<CodeImage>(requireOk(CodeImage::loadBinary(P.Path)));
  P.Layout = requireOk(ExecutableLayout::load(P.Path));
  P.Object = std::make_shared<llvm::object::OwningBinary<llvm::object::ObjectFile>>(
      requireOk(llvm::object::ObjectFile::createObjectFile(P.Path)));
  P.Dis = requireOk(Disassembler::create(P.Object->getBinary()->makeTriple()));
  return P;
}

std::vector<Step> TestProgram::decode(uint64_t Begin, uint64_t End, unsigned Max) const {
  for (const llvm::object::SectionRef &Section : Object->getBinary()->sections()) {
    uint64_t Address = Section.getAddress();
    if (!Section.isText() || Begin < Address || Begin >= Address + Section.getSize())
      continue;
    llvm::StringRef Bytes = requireOk(Section.getContents());
    std::vector<Step> Steps;
    for (uint64_t At = Begin; At < End && Steps.size() < Max;) {
      auto Inst = Dis->decode(llvm::arrayRefFromStringRef(Bytes.drop_front(At - Address)), At);
      REQUIRE(Inst);
      Steps.push_back({At, Inst->Size});
      At += Inst->Size;
    }
    return Steps;
  }
  FAIL("no code at " << Begin);
  return {};
}

void TestProgram::runFunction(Plan &P, llvm::StringRef Function) const {
  for (const CodeFunction &F : Image->functions()) {
    if (F.Name != Function)
      continue;
    for (uint32_t B = F.FirstBlock; B < F.FirstBlock + F.NumBlocks; ++B) {
      const CodeBlock &Block = Image->blocks()[B];
      for (uint32_t S = Block.FirstSegment; S < Block.FirstSegment + Block.NumSegments; ++S) {
        const CodeSegment &Seg = Image->segments()[S];
        std::vector<Step> Steps = decode(Seg.Address, Seg.Address + Seg.Size);
        REQUIRE(Steps.size() == Seg.NumInstructions);
        if (Steps.empty())
          continue;
        P.Steps.insert(P.Steps.end(), Steps.begin(), Steps.end());
        P.Expected.emplace_back(P.Thread, SegmentEvent::Segment, S, 0, Seg.NumInstructions);
      }
    }
    return;
  }
  FAIL("no function " << Function.str());
}

void TestProgram::runEntry(Plan &P, unsigned Count) const {
  REQUIRE(!Image->findSegmentAtOrBefore(Layout.Entry)); // startup code has no blocks
  std::vector<Step> Steps = decode(Layout.Entry, UINT64_MAX, Count);
  P.Steps.insert(P.Steps.end(), Steps.begin(), Steps.end());
  P.Expected.emplace_back(P.Thread, SegmentEvent::Unmapped, P.BinaryModule, 0, Count);
}

void TestProgram::runLibrary(Plan &P, uint64_t Address, unsigned Count) {
  for (unsigned I = 0; I < Count; ++I) {
    P.Steps.push_back({Address, I + 1, /*Library=*/true});
    Address += I + 1;
  }
  P.Expected.emplace_back(P.Thread, SegmentEvent::Unmapped, P.LibraryModule, 0, Count);
}

void append(Plan &A, const Plan &B) {
  A.Steps.insert(A.Steps.end(), B.Steps.begin(), B.Steps.end());
  A.Expected.insert(A.Expected.end(), B.Expected.begin(), B.Expected.end());
}

std::vector<Event> readEvents(const std::string &BbtracePath) {
  auto Reader = requireOk(SegmentTraceReader::open(BbtracePath));
  std::vector<Event> Events;
  uint32_t Thread;
  SegmentEvent E;
  while (requireOk(Reader->next(Thread, E)))
    Events.emplace_back(Thread, E.What, E.Index, E.Offset, E.Count);
  return Events;
}

} // namespace mlgo::test
