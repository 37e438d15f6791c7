/// \file
/// Counting a trace's instructions per function.
#include "TraceProfile.h"

#include <algorithm>

namespace mlgo {

llvm::Expected<TraceProfile> profileTrace(llvm::StringRef Path) {
  auto Reader = SegmentTraceReader::open(Path);
  if (!Reader)
    return Reader.takeError();
  TraceProfile P;
  P.Path = Path.str();
  P.Header = (*Reader)->header();
  P.Segments = (*Reader)->segments();
  P.FunctionInstructions.assign(P.Header.Functions.size(), 0);
  P.Executed.assign(P.Header.Functions.size(), false);
  llvm::Error Err = forEachEvent(**Reader, [&](uint32_t ThreadId, const SegmentEvent &E) {
    ++P.ThreadEvents[ThreadId];
    if (E.What == SegmentEvent::Unmapped || E.What == SegmentEvent::UnmappedCode) {
      P.UnmappedInstructions += E.Count;
      P.UnmappedCodeInstructions += E.What == SegmentEvent::UnmappedCode ? E.Count : 0;
    } else {
      uint32_t F = P.Segments[E.Index].Function;
      P.FunctionInstructions[F] += E.Count;
      P.Executed[F] = true;
    }
    return llvm::Error::success();
  });
  if (Err)
    return Err;
  P.Instructions = (*Reader)->instructions();
  P.KeepsUnmappedCode = (*Reader)->keepsUnmappedCode();
  for (uint32_t Id = 0; Id < std::max<size_t>((*Reader)->modules().size(), 1); ++Id)
    P.ModuleNames.push_back((*Reader)->moduleName(Id));
  return P;
}

} // namespace mlgo
