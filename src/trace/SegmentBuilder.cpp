/// \file
/// Segment derivation. Each superblock's instructions are located in the CodeImage once,
/// when it is defined, and grouped into pieces (consecutive instructions in one place);
/// every run then only walks its pieces, merging them into segments, padding and
/// unmapped counts.
#include "SegmentBuilder.h"
#include "support/Error.h"

#include <algorithm>

namespace mlgo {

SegmentSink::~SegmentSink() = default;

llvm::Error SegmentBuilder::onModule(const CollectorModule &M) {
  if (M.IsMainExecutable && !BinaryModule) {
    BinaryModule = M.Id;
    Bias = M.LoadBias;
  }
  return llvm::Error::success();
}

llvm::Error SegmentBuilder::onSuperblock(const CollectorSuperblock &S, uint32_t Index) {
  if (Superblocks.size() <= Index)
    Superblocks.resize(Index + 1);
  SuperblockPieces &SB = Superblocks[Index];
  uint64_t Address = S.Address;
  SB.InstructionOffsets.push_back(0);
  for (uint32_t I = 0; I < S.InstrLengths.size(); ++I) {
    Piece P{SegmentEvent::Unmapped, S.ModuleId, 0, I, 1};
    if (S.ModuleId && S.ModuleId == BinaryModule) {
      uint64_t LinkAddress = Address - Bias;
      if (auto Segment = Image.findSegment(LinkAddress))
        P = {SegmentEvent::Segment, *Segment,
             static_cast<uint32_t>(LinkAddress - Image.segments()[*Segment].Address), I, 1};
      else if (auto Before = Image.findSegmentAtOrBefore(LinkAddress))
        P = {SegmentEvent::Padding, *Before, 0, I, 1};
    }
    // Instructions are contiguous, so one place's instructions form one piece.
    if (!SB.Pieces.empty() && SB.Pieces.back().What == P.What &&
        SB.Pieces.back().Index == P.Index)
      ++SB.Pieces.back().NumInstructions;
    else
      SB.Pieces.push_back(P);
    Address += S.InstrLengths[I];
    SB.InstructionOffsets.push_back(Address - S.Address);
  }
  return llvm::Error::success();
}

llvm::Error SegmentBuilder::flush(uint32_t ThreadId, ThreadState &T) {
  if (!T.Open)
    return llvm::Error::success();
  T.Open = false;
  SegmentEvent E = T.Pending;
  if (E.What == SegmentEvent::Segment) {
    // Whole means all of its bytes ran as the binary's instructions. Valgrind counts a
    // client request (5 instructions) as one: such a run keeps the count that ran.
    const CodeSegment &S = Image.segments()[E.Index];
    if (E.Offset != 0 || T.NextOffset != S.Size || E.Count != S.NumInstructions)
      E.What = SegmentEvent::PartialSegment;
  }
  return Sink.onEvent(ThreadId, E);
}

llvm::Error SegmentBuilder::add(uint32_t ThreadId, ThreadState &T, const Piece &P,
                                uint32_t Count, uint32_t Bytes) {
  SegmentEvent &E = T.Pending;
  bool Continues = T.Open && E.What == P.What && E.Index == P.Index &&
                   (P.What != SegmentEvent::Segment || T.NextOffset == P.Offset);
  if (!Continues) {
    if (llvm::Error Err = flush(ThreadId, T))
      return Err;
    T.Open = true;
    E = {P.What, P.Index, P.Offset, 0};
    T.NextOffset = P.Offset;
  }
  E.Count += Count;
  T.NextOffset += Bytes;
  // A segment that reached its end is complete: the next visit starts a new event.
  if (P.What == SegmentEvent::Segment && T.NextOffset == Image.segments()[P.Index].Size)
    return flush(ThreadId, T);
  return llvm::Error::success();
}

llvm::Error SegmentBuilder::onRun(const CollectorRun &R) {
  const SuperblockPieces &SB = Superblocks[R.SuperblockIndex];
  ThreadState &T = R.ThreadId == LastThreadId && LastThread ? *LastThread
                                                              : Threads[R.ThreadId];
  LastThreadId = R.ThreadId;
  LastThread = &T;
  for (const Piece &P : SB.Pieces) {
    if (P.FirstInstruction >= R.NumInstructions)
      break;
    uint32_t Count = std::min(P.NumInstructions, R.NumInstructions - P.FirstInstruction);
    uint32_t Bytes = SB.InstructionOffsets[P.FirstInstruction + Count] -
                     SB.InstructionOffsets[P.FirstInstruction];
    if (llvm::Error E = add(R.ThreadId, T, P, Count, Bytes))
      return E;
  }
  return llvm::Error::success();
}

llvm::Error SegmentBuilder::finish() {
  for (auto &[ThreadId, T] : Threads)
    if (llvm::Error E = flush(ThreadId, T))
      return E;
  return llvm::Error::success();
}

} // namespace mlgo
