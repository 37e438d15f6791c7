/// \file
/// Counting a trace's instructions per function.
#include "TraceProfile.h"

#include <algorithm>
#include <vector>

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
  // The events of one thread come in runs: its count is looked up once a run. Most
  // events run a whole segment: counted per segment, added to functions at the end.
  uint32_t LastThread = 0;
  uint64_t *LastThreadEvents = nullptr;
  std::vector<uint64_t> WholeRuns(P.Segments.size());
  llvm::Error Err = forEachEvent(**Reader, [&](uint32_t ThreadId, const SegmentEvent &E) {
    if (ThreadId != LastThread || !LastThreadEvents) {
      LastThreadEvents = &P.ThreadEvents[ThreadId]; // std::map: stays where it is
      LastThread = ThreadId;
    }
    ++*LastThreadEvents;
    if (E.What == SegmentEvent::Segment) {
      ++WholeRuns[E.Index];
    } else if (E.What == SegmentEvent::Unmapped || E.What == SegmentEvent::UnmappedCode) {
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
  for (size_t S = 0; S < WholeRuns.size(); ++S) {
    if (!WholeRuns[S])
      continue;
    uint32_t F = P.Segments[S].Function;
    P.FunctionInstructions[F] += WholeRuns[S] * P.Segments[S].Instructions;
    P.Executed[F] = true;
  }
  P.Instructions = (*Reader)->instructions();
  P.KeepsUnmappedCode = (*Reader)->keepsUnmappedCode();
  P.HasLoadDependences = (*Reader)->hasLoadDependences();
  P.Loads = (*Reader)->loadDependences();
  for (uint32_t Id = 0; Id < std::max<size_t>((*Reader)->modules().size(), 1); ++Id)
    P.ModuleNames.push_back((*Reader)->moduleName(Id));
  return P;
}

} // namespace mlgo
