/// \file
/// Counting a trace's instructions per function.
#include "TracePass.h"
#include "TraceProfile.h"
#include "TraceProfiler.h"

#include <algorithm>
#include <vector>

namespace mlgo {

TraceProfiler::TraceProfiler(const SegmentTraceReader &Reader) : Reader(Reader) {
  P.Path = Reader.path();
  P.Header = Reader.header();
  P.Segments = Reader.segments();
  P.FunctionInstructions.assign(P.Header.Functions.size(), 0);
  P.Executed.assign(P.Header.Functions.size(), false);
  WholeRuns.assign(P.Segments.size(), 0);
}

TraceProfile TraceProfiler::finish() {
  for (size_t S = 0; S < WholeRuns.size(); ++S) {
    if (!WholeRuns[S])
      continue;
    uint32_t F = P.Segments[S].Function;
    P.FunctionInstructions[F] += WholeRuns[S] * P.Segments[S].Instructions;
    P.Executed[F] = true;
  }
  P.Instructions = Reader.instructions();
  P.KeepsUnmappedCode = Reader.keepsUnmappedCode();
  P.HasLoadDependences = Reader.hasLoadDependences();
  P.Loads = Reader.loadDependences();
  for (uint32_t Id = 0; Id < std::max<size_t>(Reader.modules().size(), 1); ++Id)
    P.ModuleNames.push_back(Reader.moduleName(Id));
  return std::move(P);
}

llvm::Expected<TraceProfile> profileTrace(llvm::StringRef Path) {
  return runTracePass<TraceProfiler>(Path);
}

} // namespace mlgo
