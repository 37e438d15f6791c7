/// \file
/// trace show --events: every event of a .bbtrace as a line of text, to read a trace
/// or to compare two (e.g. a recording and an import of the same run) with diff.
#include "SegmentTrace.h"
#include "Trace.h"
#include "TraceEventLine.h"
#include "support/Printable.h"

#include <fmt/format.h>

namespace mlgo {
namespace {

std::string segmentName(const SegmentTraceReader &Reader, uint32_t Index) {
  const SegmentTraceReader::SegmentName &S = Reader.segments()[Index];
  const TracedFunction &F = Reader.header().Functions[S.Function];
  return fmt::format("{} block {} segment {}", F.Key, F.Blocks[S.Block].ID, S.SegmentInBlock);
}

} // namespace

void printTraceEvent(const SegmentTraceReader &Reader, uint32_t Thread, const SegmentEvent &E,
                     llvm::raw_ostream &OS) {
  std::string What;
  switch (E.What) {
  case SegmentEvent::Segment:
    What = "segment " + segmentName(Reader, E.Index);
    break;
  case SegmentEvent::PartialSegment:
    What = fmt::format("partial {} from byte {}", segmentName(Reader, E.Index), E.Offset);
    break;
  case SegmentEvent::Padding:
    What = "padding after " + segmentName(Reader, E.Index);
    break;
  case SegmentEvent::Unmapped:
    What = "unmapped in " + Reader.moduleName(E.Index);
    break;
  case SegmentEvent::UnmappedCode: {
    const CodeChunk &C = Reader.chunks()[E.Index];
    What = fmt::format("unmapped code chunk {} at {:#x} in {}", C.Id, C.Address,
                       Reader.moduleName(C.Module));
    break;
  }
  }
  OS << fmt::format("thread {}: {}, {} instructions\n", Thread, printable(What), E.Count);
}

llvm::Error printTraceEvents(llvm::StringRef Path, llvm::raw_ostream &OS) {
  auto Reader = SegmentTraceReader::open(Path);
  if (!Reader)
    return Reader.takeError();
  return forEachEvent(**Reader, [&](uint32_t Thread, const SegmentEvent &E) {
    printTraceEvent(**Reader, Thread, E, OS);
    return llvm::Error::success();
  });
}

} // namespace mlgo
