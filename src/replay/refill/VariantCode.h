/// \file
/// A variant's code as a segment trace names it. Every traced segment of the recorded
/// binary is looked up in the variant by function key, block ID and segment index;
/// functions the variant lacks, or whose blocks differ from the trace's (a changed CFG),
/// are reported one by one and may take their code from the baseline instead. A block
/// whose segments differ only after its last call is no mismatch: the register
/// allocator moved a copy or reload across that call (see SegmentSource).
#pragma once

#include "code/CodeImage.h"
#include "replay/refill/FunctionMismatch.h"
#include "trace/SegmentTrace.h"

#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace mlgo {

/// Where the code of one traced segment comes from: Segments consecutive segments of
/// Image from Segment. Segment k of a block is its code after the k-th call or branch up
/// to the next, in the trace and in the image alike, so a segment maps to one, except
/// where the image and the recorded binary differ after the block's last call. If the
/// image has code there and the recorded binary not, that code follows the block's
/// last traced segment (2 segments: it runs there, since the trace never shows it). If
/// the recorded binary has code there and the image not, that traced segment runs
/// nothing (0 segments; Segment is then the image's last of the block).
struct SegmentSource {
  const CodeImage *Image = nullptr; ///< null: no code (function not traced or unmatched)
  uint32_t Segment = 0;             ///< index into Image->segments()
  uint32_t Segments = 1;            ///< 0, 1 or 2

  /// The image's segment the padding after the traced one follows.
  uint32_t lastSegment() const { return Segments ? Segment + Segments - 1 : Segment; }
};

class VariantCode {
public:
  /// Matches the functions marked in \p Traced (indexes into Header.Functions) against
  /// \p Variant. If \p Fallback is given, mismatched functions take their code from it,
  /// where it matches the trace; Fallback must outlive the result, as must Variant.
  static VariantCode match(const SegmentTraceHeader &Header,
                           llvm::ArrayRef<SegmentTraceReader::SegmentName> Segments,
                           const std::vector<bool> &Traced, const CodeImage &Variant,
                           const CodeImage *Fallback);

  const CodeImage &variant() const { return *Variant; }
  /// The code of trace segment \p Index.
  const SegmentSource &source(uint32_t Index) const { return Sources[Index]; }
  /// Traced functions the variant could not provide (whether or not a fallback did).
  const std::vector<FunctionMismatch> &mismatches() const { return Mismatches; }
  /// Traced functions that neither the variant nor the fallback could provide.
  const std::vector<FunctionMismatch> &unresolved() const { return Unresolved; }

private:
  const CodeImage *Variant = nullptr;
  std::vector<SegmentSource> Sources;
  std::vector<FunctionMismatch> Mismatches, Unresolved;
};

} // namespace mlgo
