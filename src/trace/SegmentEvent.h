/// \file
/// The events of a segment trace (.bbtrace), as the segment builder derives them, the
/// writer stores them and the reader gives them back; and the sink that takes them.
#pragma once

#include "CodeChunk.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>

namespace mlgo {

/// One step of a thread's segment trace.
struct SegmentEvent {
  enum Kind : uint8_t {
    /// All of segment Index ran, from its first instruction to its last.
    Segment,
    /// Count instructions of segment Index ran from byte Offset (entered in the middle,
    /// by a signal handler's return or an exception, or left early by a fault; or all
    /// of it, but counted otherwise, as Valgrind counts a client request as one).
    PartialSegment,
    /// Count instructions of alignment padding after segment Index (same function).
    Padding,
    /// Count instructions outside any block: module Index (the collector's id; the main
    /// binary's id for its unmapped code such as PLT stubs and startup code).
    Unmapped,
    /// The first Count instructions of code chunk Index: unmapped code whose bytes are
    /// kept (SegmentBuilder's KeepUnmappedCode). One event per run: never merged.
    UnmappedCode,
  };
  Kind What;
  uint32_t Index;
  uint32_t Offset;
  uint64_t Count;
};

/// Receives each thread's events in execution order.
class SegmentSink {
public:
  virtual ~SegmentSink();
  virtual llvm::Error onEvent(uint32_t ThreadId, const SegmentEvent &E) = 0;
  /// Several consecutive events of one thread (the builder hands over a run's
  /// precomputed events at once); the default calls onEvent() for each.
  virtual llvm::Error onEvents(uint32_t ThreadId, llvm::ArrayRef<SegmentEvent> Events);
  /// A chunk of unmapped code, before the first event that runs it; the default
  /// ignores it.
  virtual llvm::Error onCodeChunk(const CodeChunk &C);
};

} // namespace mlgo
