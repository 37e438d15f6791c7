/// \file
/// What profileTrace counts, one event at a time: a caller that reads a trace's events
/// for something else can profile it in the same pass.
#pragma once

#include "TraceProfile.h"

namespace mlgo {

class TraceProfiler {
public:
  explicit TraceProfiler(const SegmentTraceReader &Reader);
  /// Counts an event \p Reader returned; inline, as replay profiles traces of billions.
  void onEvent(uint32_t ThreadId, const SegmentEvent &E) {
    // The events of one thread come in runs: its count is looked up once a run. Most
    // events run a whole segment: counted per segment, added to functions at the end.
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
  }
  /// The profile, once the reader has read the end record.
  TraceProfile finish();

private:
  const SegmentTraceReader &Reader;
  TraceProfile P;
  uint32_t LastThread = 0;
  uint64_t *LastThreadEvents = nullptr;
  std::vector<uint64_t> WholeRuns;
};

} // namespace mlgo
