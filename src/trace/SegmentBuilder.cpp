/// \file
/// Segment derivation. Each superblock's instructions are located in the CodeImage once,
/// when it is defined, and grouped into pieces (consecutive instructions in one place);
/// for each of its exits the events a run through it produces are precomputed (an
/// ExitPlan). A run then only looks up its plan: its complete events go to the sink as
/// they are, and only its first and last pieces may merge with the events of the runs
/// before and after it (a segment that a superblock boundary cut, padding, or unmapped
/// code that runs on). Kept unmapped code is never merged: each run of a chunk is one
/// event, so that replay knows which instructions ran.
#include "SegmentBuilder.h"
#include "CodeChunk.h"
#include "support/Error.h"

#include <algorithm>

namespace mlgo {

llvm::Error SegmentBuilder::onModule(const CollectorModule &M) {
  if (M.IsMainExecutable && !BinaryModule) {
    BinaryModule = M.Id;
    Bias = M.LoadBias;
  }
  return llvm::Error::success();
}

llvm::Error SegmentBuilder::onSuperblock(const CollectorSuperblock &S, uint32_t) {
  // Locate each instruction; instructions are contiguous, so one place's instructions
  // form one piece.
  struct Located {
    Piece P;
    uint32_t FirstInstruction;
    uint32_t FirstByte;
  };
  std::vector<Located> Pieces;
  uint32_t Offset = 0;
  for (uint32_t I = 0; I < S.InstrLengths.size(); ++I) {
    uint32_t Length = S.InstrLengths[I];
    uint64_t Address = S.Address + Offset;
    Piece P{SegmentEvent::Unmapped, S.ModuleId, 0, 1, Length};
    if (S.ModuleId && S.ModuleId == BinaryModule) {
      uint64_t LinkAddress = Address - Bias;
      if (auto Segment = Image.findSegment(LinkAddress))
        P = {SegmentEvent::Segment, *Segment,
             static_cast<uint32_t>(LinkAddress - Image.segments()[*Segment].Address), 1,
             Length};
      else if (auto Before = Image.findSegmentAtOrBefore(LinkAddress))
        P = {SegmentEvent::Padding, *Before, 0, 1, Length};
    }
    if (!Pieces.empty() && Pieces.back().P.What == P.What && Pieces.back().P.Index == P.Index) {
      ++Pieces.back().P.NumInstructions;
      Pieces.back().P.Bytes += Length;
    } else {
      Pieces.push_back({P, I, Offset});
    }
    Offset += Length;
  }
  if (KeepUnmappedCode)
    for (Located &L : Pieces)
      if (L.P.What == SegmentEvent::Unmapped)
        if (llvm::Error E = keepCode(S, L.FirstInstruction, L.FirstByte, L.P))
          return E;

  // A run through exit I executes the first ExitInstrCounts[I] instructions.
  std::vector<Piece> Run;
  for (uint32_t I = 0; I < S.ExitInstrCounts.size(); ++I) {
    uint32_t Count = S.ExitInstrCounts[I];
    Run.clear();
    for (const Located &L : Pieces) {
      if (L.FirstInstruction >= Count)
        break;
      Piece P = L.P;
      if (L.FirstInstruction + P.NumInstructions > Count) { // cut by the exit
        P.NumInstructions = Count - L.FirstInstruction;
        P.Bytes = 0;
        for (uint32_t J = L.FirstInstruction; J < Count; ++J)
          P.Bytes += S.InstrLengths[J];
      }
      Run.push_back(P);
    }
    addPlan(S.FirstExitId + I, Run);
  }
  return llvm::Error::success();
}

llvm::Error SegmentBuilder::keepCode(const CollectorSuperblock &S, uint32_t First,
                                     uint32_t Offset, Piece &P) {
  if (S.Bytes.size() < Offset + P.Bytes)
    return stageError("the superblock at {:#x} came without its code", S.Address);
  CodeChunk C;
  C.Id = NumChunks++;
  C.Module = S.ModuleId;
  C.Address = S.Address + Offset;
  C.InstrLengths.assign(S.InstrLengths.begin() + First,
                        S.InstrLengths.begin() + First + P.NumInstructions);
  C.Bytes.assign(S.Bytes.begin() + Offset, S.Bytes.begin() + Offset + P.Bytes);
  P.What = SegmentEvent::UnmappedCode;
  P.Index = C.Id;
  return Sink.onCodeChunk(C);
}

void SegmentBuilder::addPlan(uint32_t ExitId, llvm::ArrayRef<Piece> Pieces) {
  if (Plans.size() <= ExitId) {
    Plans.resize(ExitId + 1);
    PlanPieces.resize(ExitId + 1);
  }
  ExitPlan &X = Plans[ExitId];
  EndPieces &Ends = PlanPieces[ExitId];
  Ends.Head = Pieces.front();
  X.Single = Pieces.size() == 1;
  X.FirstEvent = Events.size();
  // The events of a thread with no open event, as add() and close() would emit them.
  for (size_t I = 0; I < Pieces.size(); ++I) {
    const Piece &P = Pieces[I];
    bool Complete = isComplete(P, P.Offset + P.Bytes);
    if (I + 1 == Pieces.size() && !Complete) {
      X.HasTail = true;
      Ends.Tail = P;
      break;
    }
    SegmentEvent E{P.What, P.Index, 0, P.NumInstructions};
    // As in close(): whole only if every instruction of the segment was counted.
    if (P.What == SegmentEvent::Segment &&
        (P.Offset != 0 || !Complete ||
         P.NumInstructions != Image.segments()[P.Index].NumInstructions))
      E = {SegmentEvent::PartialSegment, P.Index, P.Offset, P.NumInstructions};
    Events.push_back(E);
  }
  X.NumEvents = Events.size() - X.FirstEvent; // at most 255 pieces
  MaxRunEvents = std::max<size_t>(MaxRunEvents, X.NumEvents + 1);
}

SegmentEvent *SegmentBuilder::close(ThreadState &T, SegmentEvent *Out) {
  if (!T.Open)
    return Out;
  T.Open = false;
  SegmentEvent E = T.Pending;
  if (E.What == SegmentEvent::Segment) {
    // Whole means all of its bytes ran as the binary's instructions. Valgrind counts a
    // client request (5 instructions) as one: such a run keeps the count that ran.
    const CodeSegment &S = Image.segments()[E.Index];
    if (E.Offset != 0 || T.NextOffset != S.Size || E.Count != S.NumInstructions)
      E.What = SegmentEvent::PartialSegment;
  }
  *Out++ = E;
  return Out;
}

SegmentEvent *SegmentBuilder::add(ThreadState &T, const Piece &P, SegmentEvent *Out) {
  SegmentEvent &E = T.Pending;
  bool Continues = T.Open && E.What == P.What && E.Index == P.Index &&
                   (P.What != SegmentEvent::Segment || T.NextOffset == P.Offset);
  if (!Continues) {
    Out = close(T, Out);
    T.Open = true;
    E = {P.What, P.Index, P.Offset, 0};
    T.NextOffset = P.Offset;
  }
  E.Count += P.NumInstructions;
  T.NextOffset += P.Bytes;
  if (isComplete(P, T.NextOffset))
    Out = close(T, Out);
  return Out;
}

inline SegmentEvent *SegmentBuilder::run(ThreadState &T, uint32_t ExitId,
                                         SegmentEvent *Out) {
  const ExitPlan &X = Plans[ExitId];
  const SegmentEvent *Complete = Events.data() + X.FirstEvent;
  const SegmentEvent *End = Complete + X.NumEvents;
  if (T.Open) { // the less common case: the previous run left something open
    Out = add(T, PlanPieces[ExitId].Head, Out);
    if (X.Single)
      return Out;
    Out = close(T, Out);
    ++Complete; // Head's event, just emitted
  }
  for (; Complete != End; ++Complete)
    *Out++ = *Complete;
  if (X.HasTail) {
    const Piece &Tail = PlanPieces[ExitId].Tail;
    T.Open = true;
    T.Pending = {Tail.What, Tail.Index, Tail.Offset, Tail.NumInstructions};
    T.NextOffset = Tail.Offset + Tail.Bytes;
  }
  return Out;
}

llvm::Expected<SegmentEvent *> SegmentBuilder::repeat(uint32_t ThreadId, ThreadState &T,
                                                      uint32_t ExitId, uint32_t Times,
                                                      SegmentEvent *Out) {
  // Unmapped code or padding that runs on (a `rep` instruction in a library, say):
  // the first run left it open, and each repetition only adds to it.
  const Piece &Head = PlanPieces[ExitId].Head;
  if (Plans[ExitId].Single &&
      (Head.What == SegmentEvent::Padding || Head.What == SegmentEvent::Unmapped)) {
    T.Pending.Count += uint64_t(Times) * Head.NumInstructions;
    return Out;
  }
  SegmentEvent *Begin = OutBuffer.data();
  for (uint32_t I = 0; I < Times; ++I) {
    if (Out >= Begin + BufferedEvents) {
      if (llvm::Error E = Sink.onEvents(ThreadId, llvm::ArrayRef<SegmentEvent>(Begin, Out)))
        return E;
      Out = Begin;
    }
    Out = run(T, ExitId, Out);
  }
  return Out;
}

llvm::Error SegmentBuilder::runs(uint32_t ThreadId, llvm::ArrayRef<RepeatedRun> Runs) {
  ThreadState &T = thread(ThreadId);
  // The sink gets the events when the batch is done, or when the buffer might not hold
  // one more run's.
  SegmentEvent *Begin = outBuffer(), *Out = Begin;
  for (const RepeatedRun &R : Runs) {
    if (Out >= Begin + BufferedEvents) {
      if (llvm::Error E = Sink.onEvents(ThreadId, llvm::ArrayRef<SegmentEvent>(Begin, Out)))
        return E;
      Out = Begin;
    }
    Out = run(T, R.ExitId, Out);
    if (R.Repeat > 1) {
      llvm::Expected<SegmentEvent *> End = repeat(ThreadId, T, R.ExitId, R.Repeat - 1, Out);
      if (!End)
        return End.takeError();
      Out = *End;
    }
  }
  if (Out == Begin)
    return llvm::Error::success();
  return Sink.onEvents(ThreadId, llvm::ArrayRef<SegmentEvent>(Begin, Out));
}

llvm::Error SegmentBuilder::onRuns(const CollectorStreamReader &, uint32_t ThreadId,
                                   llvm::ArrayRef<RepeatedRun> Runs) {
  return runs(ThreadId, Runs);
}

llvm::Error SegmentBuilder::onRun(const CollectorRun &R) {
  return runs(R.ThreadId, RepeatedRun{R.ExitId, 1});
}

llvm::Error SegmentBuilder::finish() {
  for (auto &[ThreadId, T] : Threads) {
    SegmentEvent *Begin = outBuffer();
    if (close(T, Begin) != Begin)
      if (llvm::Error E = Sink.onEvents(ThreadId, llvm::ArrayRef<SegmentEvent>(Begin, 1)))
        return E;
  }
  return llvm::Error::success();
}

} // namespace mlgo
