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
  llvm::Error Err = forEachEvent(**Reader, [&](uint32_t, const SegmentEvent &E) {
    if (E.What == SegmentEvent::Unmapped) {
      P.UnmappedInstructions += E.Count;
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
  return P;
}

} // namespace mlgo
