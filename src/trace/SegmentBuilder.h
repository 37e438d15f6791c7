/// \file
/// Segment derivation: turns the collector's executed instruction runs into, per
/// thread, the sequence of segments of the traced binary's CodeImage that ran, plus
/// the instructions that ran elsewhere (other modules, startup code, PLT stubs), counted
/// or kept as code chunks.
#pragma once

#include "CollectorStream.h"
#include "SegmentEvent.h"
#include "code/CodeImage.h"

#include <map>

namespace mlgo {

class SegmentBuilder : public CollectorStreamListener {
public:
  /// \p Image is the binary the program ran: the module the collector flags as the
  /// main executable. With \p KeepUnmappedCode, code outside mapped blocks becomes code
  /// chunks (one per superblock's stretch of it) and UnmappedCode events instead of
  /// counts; the superblocks must then come with their bytes.
  SegmentBuilder(const CodeImage &Image, SegmentSink &Sink, bool KeepUnmappedCode = false)
      : Image(Image), Sink(Sink), KeepUnmappedCode(KeepUnmappedCode) {}

  llvm::Error onModule(const CollectorModule &M) override;
  llvm::Error onSuperblock(const CollectorSuperblock &S, uint32_t Index) override;
  llvm::Error onRun(const CollectorRun &R) override;
  llvm::Error onRuns(const CollectorStreamReader &Reader, uint32_t ThreadId,
                     llvm::ArrayRef<RepeatedRun> Runs) override;

  /// Emits what each thread still holds; call once after the stream ended.
  llvm::Error finish();

  /// The collector's id of the traced binary, 0 until its module record was seen.
  uint32_t binaryModule() const { return BinaryModule; }
  /// Its run-time address minus its link-time address.
  int64_t loadBias() const { return Bias; }

private:
  /// Consecutive instructions of a run that lie in one place.
  struct Piece {
    SegmentEvent::Kind What;  ///< Segment (mapped), Padding, Unmapped or UnmappedCode
    uint32_t Index;           ///< segment, module for Unmapped, chunk for UnmappedCode
    uint32_t Offset;          ///< byte offset of the first instruction in the segment
    uint32_t NumInstructions;
    uint32_t Bytes;
  };
  /// What a run through one exit does, worked out once when its superblock is
  /// defined, so that a run is one lookup. Its pieces are consecutive and pairwise
  /// different places, so only the first (Head) can continue the thread's open event and
  /// only the last (Tail) can stay open. A thread with no open event emits
  /// Events[FirstEvent, FirstEvent + NumEvents) and then, if HasTail, holds Tail open.
  /// A thread with an open event merges Head into it instead; if there are more
  /// pieces, it closes that event and goes on from Events[FirstEvent + 1].
  /// The pieces live apart (EndPieces), so that the plans stay small in the cache.
  struct ExitPlan {
    uint32_t FirstEvent = 0; ///< into Events
    uint16_t NumEvents = 0;
    bool Single = false;  ///< Head is the only piece
    bool HasTail = false; ///< the last piece may be continued by the next run
  };
  struct EndPieces {
    Piece Head;
    Piece Tail;
  };
  struct ThreadState {
    bool Open = false;
    SegmentEvent Pending{SegmentEvent::Unmapped, 0, 0, 0};
    uint64_t NextOffset = 0; ///< where the open segment continues
  };

  /// Keeps the \p P.NumInstructions instructions of \p S from its \p First one, at byte
  /// \p Offset, as a new code chunk, and makes \p P run it.
  llvm::Error keepCode(const CollectorSuperblock &S, uint32_t First, uint32_t Offset,
                       Piece &P);
  void addPlan(uint32_t ExitId, llvm::ArrayRef<Piece> Pieces);
  /// Whether an event of \p P that has run up to byte \p End is complete, so that the
  /// next piece starts a new event: a segment that reached its end, or a chunk's run.
  bool isComplete(const Piece &P, uint64_t End) const {
    return P.What == SegmentEvent::UnmappedCode ||
           (P.What == SegmentEvent::Segment && End == Image.segments()[P.Index].Size);
  }
  // The next three write the events they complete at \p Out and return its new end.
  /// A run through exit \p ExitId.
  SegmentEvent *run(ThreadState &T, uint32_t ExitId, SegmentEvent *Out);
  /// Merges \p P into the thread's open event, or closes it and opens a new one.
  SegmentEvent *add(ThreadState &T, const Piece &P, SegmentEvent *Out);
  /// Closes the thread's open event, if any.
  SegmentEvent *close(ThreadState &T, SegmentEvent *Out);
  llvm::Error runs(uint32_t ThreadId, llvm::ArrayRef<RepeatedRun> Runs);
  /// Repeats the run through \p ExitId \p Times more times; the sink gets the events
  /// from OutBuffer whenever it might overflow. \p Out is in OutBuffer.
  llvm::Expected<SegmentEvent *> repeat(uint32_t ThreadId, ThreadState &T,
                                        uint32_t ExitId, uint32_t Times,
                                        SegmentEvent *Out);
  /// OutBuffer with room for BufferedEvents and one more run.
  SegmentEvent *outBuffer() {
    if (OutBuffer.size() < BufferedEvents + MaxRunEvents)
      OutBuffer.resize(BufferedEvents + MaxRunEvents);
    return OutBuffer.data();
  }
  static constexpr size_t BufferedEvents = 4096;
  ThreadState &thread(uint32_t ThreadId) {
    if (ThreadId != LastThreadId || !LastThread) {
      LastThreadId = ThreadId;
      LastThread = &Threads[ThreadId];
    }
    return *LastThread;
  }

  const CodeImage &Image;
  SegmentSink &Sink;
  bool KeepUnmappedCode;
  uint32_t NumChunks = 0;
  uint32_t BinaryModule = 0;
  int64_t Bias = 0;
  std::vector<ExitPlan> Plans;       ///< by exit id
  std::vector<EndPieces> PlanPieces; ///< by exit id
  std::vector<SegmentEvent> Events;  ///< the plans' complete events
  /// The most events one run can complete: the thread's open one, then its plan's.
  size_t MaxRunEvents = 2;
  std::vector<SegmentEvent> OutBuffer; ///< a batch's events, before the sink gets them
  std::map<uint32_t, ThreadState> Threads; ///< node-based: pointers stay valid
  uint32_t LastThreadId = 0;
  ThreadState *LastThread = nullptr;
};

} // namespace mlgo
