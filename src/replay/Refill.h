/// \file
/// Refilling a segment trace with a variant's instructions: every event of the trace
/// becomes the decoded instructions (MCInst) that the variant runs in its place.
#pragma once

#include "VariantCode.h"

#include "llvm/MC/MCInst.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <memory>

namespace mlgo {

class Disassembler;

/// Consecutive instructions of one traced function, as the variant runs them.
struct RefilledCode {
  uint32_t Function; ///< index into the trace header's functions
  llvm::ArrayRef<llvm::MCInst> Instructions;
  llvm::ArrayRef<uint64_t> Addresses; ///< in the image the code comes from
};

class RefillSink {
public:
  virtual ~RefillSink();
  virtual llvm::Error onCode(uint32_t ThreadId, const RefilledCode &Code) = 0;
};

/// What a refill modeled and what it could not.
struct RefillCounts {
  uint64_t TraceInstructions = 0; ///< all instructions of the trace
  uint64_t Refilled = 0;          ///< instructions handed to the sink
  uint64_t Unmapped = 0;          ///< traced outside mapped code: not modeled
  /// Events whose segment was entered or left in the middle; when the code is not the
  /// recorded binary's, their instructions are approximated (see refillTrace).
  uint64_t PartialSegments = 0;
};

/// Reads \p Trace to its end and hands every mapped event's instructions to \p Sink.
/// Code from the image the trace was recorded on (same identity) is refilled exactly, including segments entered in the middle. For
/// other code, a partial segment entered at its start runs its first instructions, one
/// entered in the middle its last ones. Padding runs the variant's padding bytes after
/// the segment, up to the traced instruction count. \p OnProgress is called with the
/// instructions read so far, now and then.
llvm::Expected<RefillCounts>
refillTrace(SegmentTraceReader &Trace, const VariantCode &Code, RefillSink &Sink,
            const std::function<void(uint64_t)> &OnProgress = nullptr);

} // namespace mlgo
