/// \file
/// Segment derivation: turns the collector's executed instruction runs into, per
/// thread, the sequence of segments of the traced binary's CodeImage that ran, plus
/// the instructions that ran elsewhere (other modules, startup code, PLT stubs).
#pragma once

#include "CodeImage.h"
#include "CollectorStream.h"

#include <map>

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
};

class SegmentBuilder : public CollectorStreamListener {
public:
  /// \p Image is the binary the program ran: the module the collector flags as the
  /// main executable.
  SegmentBuilder(const CodeImage &Image, SegmentSink &Sink) : Image(Image), Sink(Sink) {}

  llvm::Error onModule(const CollectorModule &M) override;
  llvm::Error onSuperblock(const CollectorSuperblock &S, uint32_t Index) override;
  llvm::Error onRun(const CollectorRun &R) override;

  /// Emits what each thread still holds; call once after the stream ended.
  llvm::Error finish();

  /// The collector's id of the traced binary, 0 until its module record was seen.
  uint32_t binaryModule() const { return BinaryModule; }

private:
  /// Consecutive instructions of a superblock that lie in one place.
  struct Piece {
    SegmentEvent::Kind What; ///< Segment (mapped), Padding or Unmapped
    uint32_t Index;          ///< segment, or module for Unmapped
    uint32_t Offset;         ///< byte offset of the first instruction in the segment
    uint32_t FirstInstruction;
    uint32_t NumInstructions;
  };
  struct SuperblockPieces {
    std::vector<Piece> Pieces;
    /// Byte offset of each instruction from the superblock start, and of its end.
    std::vector<uint32_t> InstructionOffsets;
  };
  struct ThreadState {
    bool Open = false;
    SegmentEvent Pending{SegmentEvent::Unmapped, 0, 0, 0};
    uint64_t NextOffset = 0; ///< where the open segment continues
  };

  /// Adds the first \p Count instructions of \p P.
  llvm::Error add(uint32_t ThreadId, ThreadState &T, const Piece &P, uint32_t Count,
                  uint32_t Bytes);
  llvm::Error flush(uint32_t ThreadId, ThreadState &T);

  const CodeImage &Image;
  SegmentSink &Sink;
  uint32_t BinaryModule = 0;
  int64_t Bias = 0;
  std::vector<SuperblockPieces> Superblocks;
  std::map<uint32_t, ThreadState> Threads; ///< node-based: pointers stay valid
  uint32_t LastThreadId = 0;
  ThreadState *LastThread = nullptr;
};

} // namespace mlgo
