/// \file
/// The line `trace show --events` prints for one event, for printTraceEvents and for a
/// caller that reads a trace's events for something else in the same pass.
#pragma once

#include "SegmentTrace.h"

#include "llvm/Support/raw_ostream.h"

namespace mlgo {

/// Prints event \p E of \p Thread, just returned by \p Reader, as printTraceEvents does.
void printTraceEvent(const SegmentTraceReader &Reader, uint32_t Thread, const SegmentEvent &E,
                     llvm::raw_ostream &OS);

} // namespace mlgo
