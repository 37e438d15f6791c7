/// \file
/// Segment derivation. Each superblock's instructions are located in the CodeImage once,
/// when it is defined; every run then only walks those locations, merging instructions
/// into segments, padding and unmapped counts.
#include "SegmentBuilder.h"
#include "support/Error.h"

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
  std::vector<Location> &Locations = Superblocks[Index];
  uint64_t Address = S.Address;
  for (uint8_t Length : S.InstrLengths) {
    Location L{SegmentEvent::Unmapped, S.ModuleId, 0, Length};
    if (S.ModuleId && S.ModuleId == BinaryModule) {
      uint64_t LinkAddress = Address - Bias;
      if (auto Segment = Image.findSegment(LinkAddress))
        L = {SegmentEvent::Segment, *Segment,
             static_cast<uint32_t>(LinkAddress - Image.segments()[*Segment].Address), Length};
      else if (auto Before = Image.findSegmentAtOrBefore(LinkAddress))
        L = {SegmentEvent::Padding, *Before, 0, Length};
    }
    Locations.push_back(L);
    Address += Length;
  }
  return llvm::Error::success();
}

llvm::Error SegmentBuilder::flush(uint32_t ThreadId, ThreadState &T) {
  if (!T.Open)
    return llvm::Error::success();
  T.Open = false;
  SegmentEvent E = T.Pending;
  if (E.What == SegmentEvent::Segment) {
    const CodeSegment &S = Image.segments()[E.Index];
    if (E.Offset != 0 || T.NextOffset != S.Size)
      E.What = SegmentEvent::PartialSegment;
  }
  return Sink.onEvent(ThreadId, E);
}

llvm::Error SegmentBuilder::add(uint32_t ThreadId, ThreadState &T, const Location &L) {
  SegmentEvent &P = T.Pending;
  bool Continues = T.Open && P.What == L.What && P.Index == L.Index &&
                   (L.What != SegmentEvent::Segment || T.NextOffset == L.Offset);
  if (!Continues) {
    if (llvm::Error E = flush(ThreadId, T))
      return E;
    T.Open = true;
    P = {L.What, L.Index, L.Offset, 0};
    T.NextOffset = L.Offset;
  }
  ++P.Count;
  T.NextOffset += L.Length;
  // A segment that reached its end is complete: the next visit starts a new event.
  if (L.What == SegmentEvent::Segment &&
      T.NextOffset == Image.segments()[L.Index].Size)
    return flush(ThreadId, T);
  return llvm::Error::success();
}

llvm::Error SegmentBuilder::onRun(const CollectorRun &R) {
  const std::vector<Location> &Locations = Superblocks[R.SuperblockIndex];
  ThreadState &T = Threads[R.ThreadId];
  for (uint32_t I = 0; I < R.NumInstructions; ++I)
    if (llvm::Error E = add(R.ThreadId, T, Locations[I]))
      return E;
  return llvm::Error::success();
}

llvm::Error SegmentBuilder::finish() {
  for (auto &[ThreadId, T] : Threads)
    if (llvm::Error E = flush(ThreadId, T))
      return E;
  return llvm::Error::success();
}

} // namespace mlgo
