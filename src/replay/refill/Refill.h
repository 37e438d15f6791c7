/// \file
/// Refilling a segment trace with a variant's instructions: every event of the trace
/// becomes the decoded instructions (MCInst) that the variant runs in its place.
#pragma once

#include "replay/refill/VariantCode.h"

#include "llvm/MC/MCInst.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <memory>

namespace mlgo {

class Disassembler;
struct ShardEvents;

/// Consecutive instructions of one traced function as the variant runs them, or of
/// unmapped code as it was recorded.
struct RefilledCode {
  /// Index into the trace header's functions, or the caller's pseudo-function of a
  /// module for unmapped code (see refillTrace).
  uint32_t Function;
  /// The event's ordinal among its thread's events in the trace (all of them, also
  /// those that hand nothing over): it names the event across variants.
  uint64_t Event;
  llvm::ArrayRef<llvm::MCInst> Instructions;
  llvm::ArrayRef<uint64_t> Addresses; ///< in the image the code comes from
  /// With a reference (see refillTrace), what the reference runs in the same place.
  llvm::ArrayRef<llvm::MCInst> ReferenceInstructions;
  llvm::ArrayRef<uint64_t> ReferenceAddresses;
  /// Instructions of the trace (all threads, all kinds of events) before the event:
  /// where it is in the trace, the same in every variant (0 from refillShard).
  uint64_t Position = 0;
  /// The trace segment the event runs whole (its instructions the same each time), or
  /// NoSegment: lets a sink find what it keeps per piece of code by index.
  uint32_t Segment = NoSegment;
  static constexpr uint32_t NoSegment = ~uint32_t(0);
  /// The transfer of control that ended the thread's previous event (a whole segment,
  /// as this one) went where the thread's branch predictor did not expect
  /// (BranchPredictor.h): the same in every variant and every replay mode.
  bool Mispredicted = false;
  /// Each instruction's bytes, in the code and in the reference's: where the front end
  /// fetches it (empty in code built by hand: not fetched).
  llvm::ArrayRef<uint8_t> Sizes = {}, ReferenceSizes = {};
  /// Where the front end counts its lines from, in the code and in the reference: the
  /// start of the event's function (a line's start where built with
  /// -falign-functions=64), or 0 for unmapped code. Objects lie elsewhere than in the
  /// linked program: lines counted from address 0 would differ between a variant's
  /// objects and the same code linked.
  uint64_t LineBase = 0, ReferenceLineBase = 0;
};

class RefillSink {
public:
  virtual ~RefillSink();
  virtual llvm::Error onCode(uint32_t ThreadId, const RefilledCode &Code) = 0;
  /// The events of \p ThreadId from the last one handed over up to ordinal \p Event
  /// are left out (refillShard, between its runs, and after the last one the thread's
  /// count of events): what comes next does not continue what came before.
  virtual void onSkip(uint32_t ThreadId, uint64_t Event) {
    (void)ThreadId;
    (void)Event;
  }
  /// refillTrace counts the events that start before this trace position but does
  /// not hand them over: a sink that will not look at them (a chunk's worker, at the
  /// chunks of others) spares their hand-over.
  uint64_t handsOverFrom() const { return HandOverFrom; }

protected:
  uint64_t HandOverFrom = 0;
};

/// What a refill modeled and what it could not.
struct RefillCounts {
  uint64_t TraceInstructions = 0; ///< all instructions of the trace
  uint64_t Refilled = 0;          ///< instructions handed to the sink
  /// Traced outside mapped code: replayed from the trace's code chunks, or not modeled.
  uint64_t UnmappedReplayed = 0, UnmappedSkipped = 0;
  /// Of UnmappedReplayed, the further iterations of rep-prefixed instructions: modeled by
  /// the one instruction handed to the sink for each series (see refillTrace).
  uint64_t FoldedIterations = 0;
  /// Events whose segment was entered or left in the middle; when the code is not the
  /// recorded binary's, their instructions are approximated (see refillTrace).
  uint64_t PartialSegments = 0;
  /// Events after a mispredicted transfer of control (RefilledCode::Mispredicted).
  uint64_t Mispredicted = 0;
};

/// Reads \p Trace to its end and hands every mapped event's instructions to \p Sink.
/// Code from the image the trace was recorded on (same identity) is refilled exactly, including segments entered in the middle. For
/// other code, a partial segment entered at its start runs its first instructions, one
/// entered in the middle its last ones. Padding runs the variant's padding bytes after
/// the segment, up to the traced instruction count. Unmapped code kept in the trace runs
/// its recorded instructions if \p UnmappedFunctions gives, per collector module id, the
/// function index to attribute them to; with none, it is skipped, as are the unmapped
/// instructions the trace only counts. Valgrind counts every iteration of a rep-prefixed
/// instruction (rep movsb in memcpy) as an instruction, while MCA models the instruction
/// whole (skylake's rep movsb takes 100 cycles): each series of iterations is handed to
/// the sink once, the other iterations counted as folded. \p OnProgress is called with
/// the instructions read so far, now and then. Every mapped event is handed over (but
/// those before the sink's handsOverFrom()), also one without instructions, so that a
/// gap in a thread's ordinals means code left out. With a \p Reference, each event also
/// carries the reference's code for it; the counts are \p Code's.
llvm::Expected<RefillCounts>
refillTrace(SegmentTraceReader &Trace, const VariantCode &Code, RefillSink &Sink,
            llvm::ArrayRef<uint32_t> UnmappedFunctions = {},
            const std::function<void(uint64_t)> &OnProgress = nullptr,
            const VariantCode *Reference = nullptr);

/// refillTrace over the events \p Shard kept of \p Trace (ShardEvents.h; the refill
/// reads the trace's header, segments and code chunks), run by run, each after an onSkip
/// to its first event; then an onSkip per thread to its count of events. The counts are
/// of those events.
llvm::Expected<RefillCounts> refillShard(const ShardEvents &Shard,
                                         const SegmentTraceReader &Trace,
                                         const VariantCode &Code, RefillSink &Sink,
                                         llvm::ArrayRef<uint32_t> UnmappedFunctions,
                                         const VariantCode *Reference);

} // namespace mlgo
