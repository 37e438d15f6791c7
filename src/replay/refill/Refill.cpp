/// \file
/// Refilling a trace: events to decoded instructions, each segment and chunk decoded once.
#include "replay/refill/Refill.h"
#include "detail/DecodedCode.h"
#include "replay/refill/BranchPredictor.h"
#include "replay/refill/ShardEvents.h"
#include "support/Error.h"

#include "llvm/Support/Compiler.h"

#include <map>
#include <optional>
#include <tuple>

namespace mlgo {

RefillSink::~RefillSink() = default;

namespace {

/// The instructions that replace one event: Count decoded ones from First, and the
/// event's instructions folded into ones handed over before.
struct EventCode {
  uint32_t Function;
  const DecodedCode *Code;
  size_t First, Count;
  uint64_t Folded = 0;
};

/// Finds each event's instructions, decoding each piece of code once.
class EventDecoder {
public:
  EventDecoder(const SegmentTraceReader &Trace, const VariantCode &Code,
               llvm::ArrayRef<uint32_t> UnmappedFunctions)
      : Trace(Trace), Code(Code), UnmappedFunctions(UnmappedFunctions) {}

  /// The code of \p E, in \p Out: kept until the next call.
  llvm::Error decode(uint32_t ThreadId, const SegmentEvent &E, const EventCode *&Out) {
    if (E.What == SegmentEvent::Segment && WholeSegments[E.Index].Code) {
      Last = {ThreadId, NoAddress}; // most events: a segment seen before
      Out = &WholeSegments[E.Index];
      return llvm::Error::success();
    }
    return decodeFirst(ThreadId, E, Out);
  }

private:
  /// decode() of an event other than a segment seen before: out of line, so that
  /// decode() is inlined.
  LLVM_ATTRIBUTE_NOINLINE llvm::Error decodeFirst(uint32_t ThreadId, const SegmentEvent &E,
                                                  const EventCode *&Out) {
    auto Found = E.What == SegmentEvent::UnmappedCode ? unmapped(ThreadId, E)
                                                      : mapped(ThreadId, E);
    if (!Found)
      return Found.takeError();
    EventCode &Kept = E.What == SegmentEvent::Segment ? WholeSegments[E.Index] : Other;
    Kept = *Found;
    Out = &Kept;
    return llvm::Error::success();
  }

  /// A segment, partial segment or padding event.
  llvm::Expected<EventCode> mapped(uint32_t ThreadId, const SegmentEvent &E) {
    Last = {ThreadId, NoAddress};
    const SegmentSource &Source = Code.source(E.Index);
    uint32_t Function = Trace.segments()[E.Index].Function;
    if (!Source.Image)
      return stageError("trace segment {} of {} has no code", E.Index,
                        Trace.header().Functions[Function].Key);
    auto Decoded = E.What == SegmentEvent::Padding
                       ? Cache.paddingAfter(*Source.Image, Source.lastSegment())
                       : Cache.segments(*Source.Image, Source.Segment, Source.Segments);
    if (!Decoded)
      return Decoded.takeError();
    const DecodedCode &D = **Decoded;
    size_t First = 0, Count = D.Instructions.size();
    if (E.What == SegmentEvent::Padding) {
      Count = std::min<uint64_t>(Count, E.Count);
    } else if (E.What == SegmentEvent::PartialSegment) {
      Count = std::min<uint64_t>(Count, E.Count);
      if (Source.Image->identity() == Trace.header().Identity) {
        // Exact: start at the recorded byte offset.
        auto At = std::lower_bound(D.Offsets.begin(), D.Offsets.end(), E.Offset);
        First = At - D.Offsets.begin();
        Count = std::min(Count, D.Instructions.size() - First);
      } else if (E.Offset != 0) {
        First = D.Instructions.size() - Count;
      }
    }
    return EventCode{Function, &D, First, Count};
  }

  /// An unmapped code event, with UnmappedFunctions given.
  llvm::Expected<EventCode> unmapped(uint32_t ThreadId, const SegmentEvent &E) {
    const CodeChunk &Chunk = Trace.chunks()[E.Index];
    // Valgrind runs each further iteration of a rep-prefixed instruction as a superblock
    // of that one instruction, at the address of the instruction that just ran.
    bool Iterates = Chunk.numInstructions() == 1 && Last.ThreadId == ThreadId &&
                    Last.Address == Chunk.Address;
    if (Chunk.Module >= UnmappedFunctions.size())
      return stageError("code chunk {} is in module {}, which has no function to "
                        "attribute it to",
                        Chunk.Id, Chunk.Module);
    auto Decoded = Cache.chunk(Chunk, Code.variant().triple(), Trace.path());
    if (!Decoded)
      return Decoded.takeError();
    const DecodedCode &D = **Decoded;
    // The reader checked that the event runs at most the chunk's instructions.
    Last = {ThreadId, D.Addresses[E.Count - 1]};
    if (Iterates)
      return EventCode{UnmappedFunctions[Chunk.Module], &D, 0, 0, E.Count};
    return EventCode{UnmappedFunctions[Chunk.Module], &D, 0, E.Count};
  }

  static constexpr uint64_t NoAddress = ~uint64_t(0);
  /// The thread of the previous event, and its last instruction if it was unmapped code.
  struct LastInstruction {
    uint32_t ThreadId;
    uint64_t Address;
  };
  LastInstruction Last{0, NoAddress};
  const SegmentTraceReader &Trace;
  const VariantCode &Code;
  llvm::ArrayRef<uint32_t> UnmappedFunctions;
  DecodedCodeCache Cache;
  /// By trace segment: the code of an event that runs all of it, once decoded (Code
  /// set): an event is a few instructions, not worth a lookup in Cache each.
  std::vector<EventCode> WholeSegments =
      std::vector<EventCode>(Trace.segments().size(), EventCode{0, nullptr, 0, 0});
  EventCode Other; ///< the code of the last other event decoded
};

} // namespace

namespace {
/// The instructions of \p Found.
std::pair<llvm::ArrayRef<llvm::MCInst>, llvm::ArrayRef<uint64_t>> slice(const EventCode &Found) {
  return {llvm::ArrayRef(Found.Code->Instructions).slice(Found.First, Found.Count),
          llvm::ArrayRef(Found.Code->Addresses).slice(Found.First, Found.Count)};
}
} // namespace

namespace {
/// Hands events to a sink with their code (and the reference's): what refillTrace and
/// refillShard share.
class Refiller {
public:
  Refiller(const SegmentTraceReader &Trace, const VariantCode &Code,
           const VariantCode *Reference, llvm::ArrayRef<uint32_t> UnmappedFunctions,
           RefillSink &Sink, RefillCounts &Counts)
      : Decoder(Trace, Code, UnmappedFunctions), UnmappedFunctions(UnmappedFunctions),
        Sink(Sink), Counts(Counts) {
    if (Reference)
      ReferenceDecoder.emplace(Trace, *Reference, UnmappedFunctions);
  }

  llvm::Error refill(uint32_t ThreadId, const SegmentEvent &E, uint64_t Ordinal,
                     uint64_t Position, bool Mispredicted) {
    bool IsCode = E.What == SegmentEvent::UnmappedCode;
    if (E.What == SegmentEvent::Unmapped || (IsCode && UnmappedFunctions.empty())) {
      Counts.UnmappedSkipped += E.Count;
      return llvm::Error::success();
    }
    Counts.PartialSegments += E.What == SegmentEvent::PartialSegment;
    const EventCode *Found;
    if (llvm::Error Err = Decoder.decode(ThreadId, E, Found))
      return Err;
    Counts.Refilled += Found->Count;
    Counts.UnmappedReplayed += IsCode ? Found->Count + Found->Folded : 0;
    Counts.FoldedIterations += Found->Folded;
    // Both decoders see every event: each follows the one before (rep iterations).
    const EventCode *InReference = nullptr;
    if (ReferenceDecoder)
      if (llvm::Error Err = ReferenceDecoder->decode(ThreadId, E, InReference))
        return Err;
    if (Position < Sink.handsOverFrom())
      return llvm::Error::success();
    Refilled.Function = Found->Function;
    Refilled.Event = Ordinal;
    Refilled.Position = Position;
    Refilled.Mispredicted = Mispredicted;
    Refilled.Segment = E.What == SegmentEvent::Segment ? E.Index : RefilledCode::NoSegment;
    std::tie(Refilled.Instructions, Refilled.Addresses) = slice(*Found);
    Refilled.Sizes = llvm::ArrayRef(Found->Code->Sizes).slice(Found->First, Found->Count);
    Refilled.LineBase = Found->Code->LineBase;
    if (InReference) {
      std::tie(Refilled.ReferenceInstructions, Refilled.ReferenceAddresses) =
          slice(*InReference);
      Refilled.ReferenceSizes =
          llvm::ArrayRef(InReference->Code->Sizes).slice(InReference->First, InReference->Count);
      Refilled.ReferenceLineBase = InReference->Code->LineBase;
    }
    // Also a mapped event without instructions: a sink sees a gap in the ordinals only
    // where code was left out (the flow engine then forgets the stack's layout), the
    // same with a reference and without.
    return Sink.onCode(ThreadId, Refilled);
  }

private:
  EventDecoder Decoder;
  std::optional<EventDecoder> ReferenceDecoder;
  llvm::ArrayRef<uint32_t> UnmappedFunctions;
  RefillSink &Sink;
  RefillCounts &Counts;
  // One event's code at a time, its fields set: a new one zeroed per event took a slow
  // `rep stos` each.
  RefilledCode Refilled;
};
} // namespace

llvm::Expected<RefillCounts> refillTrace(SegmentTraceReader &Trace, const VariantCode &Code,
                                         RefillSink &Sink,
                                         llvm::ArrayRef<uint32_t> UnmappedFunctions,
                                         const std::function<void(uint64_t)> &OnProgress,
                                         const VariantCode *Reference) {
  RefillCounts Counts;
  Refiller Refill(Trace, Code, Reference, UnmappedFunctions, Sink, Counts);
  uint64_t NextProgress = OnProgress ? 1 << 20 : UINT64_MAX;
  /// Per thread: events so far, and its transfers of control.
  struct ThreadEvents {
    uint64_t Ordinal = 0;
    ThreadTransfers Transfers;
  };
  std::map<uint32_t, ThreadEvents> Threads;
  uint32_t LastThread = 0;
  ThreadEvents *Thread = nullptr; ///< Threads[LastThread]: a thread's events come in runs
  const auto &Segments = Trace.segments();
  llvm::Error Err = forEachEvent(Trace, [&](uint32_t ThreadId,
                                            const SegmentEvent &E) -> llvm::Error {
    if (ThreadId != LastThread || !Thread) {
      Thread = &Threads[ThreadId]; // std::map: stays where it is
      LastThread = ThreadId;
    }
    uint64_t Ordinal = Thread->Ordinal++;
    // Every event of the trace passes here, whatever the sink keeps.
    bool Mispredicted = Thread->Transfers.mispredictedInto(E, Segments);
    Counts.Mispredicted += Mispredicted;
    uint64_t Position = Counts.TraceInstructions;
    Counts.TraceInstructions += E.Count;
    if (Counts.TraceInstructions >= NextProgress) {
      OnProgress(Counts.TraceInstructions);
      NextProgress = Counts.TraceInstructions + (1 << 20);
    }
    return Refill.refill(ThreadId, E, Ordinal, Position, Mispredicted);
  });
  if (Err)
    return Err;
  if (OnProgress)
    OnProgress(Counts.TraceInstructions);
  return Counts;
}

llvm::Expected<RefillCounts> refillShard(const ShardEvents &Shard,
                                         const SegmentTraceReader &Trace,
                                         const VariantCode &Code, RefillSink &Sink,
                                         llvm::ArrayRef<uint32_t> UnmappedFunctions,
                                         const VariantCode *Reference) {
  RefillCounts Counts;
  Refiller Refill(Trace, Code, Reference, UnmappedFunctions, Sink, Counts);
  for (const ShardRun &Run : Shard.Runs) {
    Sink.onSkip(Run.Thread, Run.FirstEvent);
    for (size_t I = Run.Begin; I < Run.End; ++I) {
      const ShardEvent &E = Shard.Events[I];
      Counts.Mispredicted += E.Mispredicted;
      Counts.TraceInstructions += E.count();
      if (llvm::Error Err = Refill.refill(Run.Thread, E.event(),
                                          Run.FirstEvent + (I - Run.Begin), 0, E.Mispredicted))
        return Err;
    }
  }
  for (const auto &[Thread, Events] : Shard.ThreadEvents)
    Sink.onSkip(Thread, Events);
  return Counts;
}

} // namespace mlgo
