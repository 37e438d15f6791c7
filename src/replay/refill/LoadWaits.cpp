#include "replay/refill/LoadWaits.h"

namespace mlgo {

LoadWaits::LoadWaits(const LoadDependences &Loads, size_t NumSegments) {
  if (Loads.empty())
    return;
  First.assign(NumSegments, NoLoads);
  Count.assign(NumSegments, 0);
  for (const SegmentLoads &S : Loads) {
    if (S.Segment >= NumSegments)
      continue;
    First[S.Segment] = static_cast<uint32_t>(Waits.size());
    Count[S.Segment] = static_cast<uint32_t>(S.Loads.size());
    // A load that never ran in the recording waits, as without dependences.
    for (const LoadCounts &L : S.Loads)
      Waits.push_back(L.Executions == 0 || L.Dependent * DependentShare >= L.Executions);
  }
}

} // namespace mlgo
