/// \file
/// Counting a trace's instructions per function.
#include "TraceProfile.h"

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
  uint32_t Thread;
  SegmentEvent E;
  for (;;) {
    auto More = (*Reader)->next(Thread, E);
    if (!More)
      return More.takeError();
    if (!*More)
      break;
    if (E.What == SegmentEvent::Unmapped) {
      P.UnmappedInstructions += E.Count;
      continue;
    }
    uint32_t F = P.Segments[E.Index].Function;
    P.FunctionInstructions[F] += E.Count;
    P.Executed[F] = true;
  }
  P.Instructions = (*Reader)->instructions();
  return P;
}

} // namespace mlgo
