/// \file
/// Which data loads (code/DataLoad.h) the flow engine makes wait for older stores'
/// addresses, from a trace's load dependences (trace record): a core predicts which
/// loads may read what an older store in flight writes and keeps those waiting, while
/// the others go ahead of stores whose addresses are not known yet.
#pragma once

#include "trace/SegmentTrace.h"

#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <vector>

namespace mlgo {

class LoadWaits {
public:
  /// A data load waits when at least one in DependentShare of its executions read what
  /// one of the last 64 stores wrote: a core that saw it do so keeps it waiting for a
  /// while (a store set), so even loads that rarely alias mostly wait.
  static constexpr uint64_t DependentShare = 20;

  LoadWaits() = default;
  /// From the load dependences of a trace with \p NumSegments segments.
  LoadWaits(const LoadDependences &Loads, size_t NumSegments);

  /// Per data load of segment \p Segment in order (as the traced binary has them),
  /// whether it waits; none if the trace has no dependences for the segment.
  llvm::ArrayRef<uint8_t> of(uint32_t Segment) const {
    if (Segment >= First.size() || First[Segment] == NoLoads)
      return {};
    return llvm::ArrayRef(Waits).slice(First[Segment], Count[Segment]);
  }

private:
  static constexpr uint32_t NoLoads = ~uint32_t(0);
  std::vector<uint32_t> First, Count; ///< by segment: where its loads are in Waits
  std::vector<uint8_t> Waits;
};

} // namespace mlgo
