/// \file
/// Decoded instructions for refill: of a code image's segments and of the padding after
/// them, and of a trace's chunks of unmapped code; each decoded once and cached.
#pragma once

#include "code/CodeImage.h"
#include "code/Disassembler.h"
#include "trace/CodeChunk.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/MC/MCInst.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <vector>

namespace mlgo {

struct DecodedCode {
  std::vector<llvm::MCInst> Instructions;
  std::vector<uint64_t> Addresses;
  std::vector<uint32_t> Offsets; ///< byte offset of each instruction from the start
  std::vector<uint8_t> Sizes;    ///< each instruction's bytes
  /// Where the front end's lines are counted from: the start of the code's function (0
  /// for unmapped code, fetched where it ran), so that an object's code and the linked
  /// program's fetch alike (RefilledCode::LineBase).
  uint64_t LineBase = 0;
};

class DecodedCodeCache {
public:
  /// The instructions of \p Count consecutive segments of one block from \p First:
  /// 0, 1 or 2 (SegmentSource).
  llvm::Expected<const DecodedCode *> segments(const CodeImage &Image, uint32_t First,
                                               uint32_t Count) {
    if (Count == 0)
      return &Empty;
    return get(Image, First, Count == 1 ? Piece::Segment : Piece::SegmentAndNext);
  }
  llvm::Expected<const DecodedCode *> paddingAfter(const CodeImage &Image,
                                                   uint32_t Segment) {
    return get(Image, Segment, Piece::Padding);
  }
  /// The instructions of \p Chunk of the trace at \p TracePath, one per instruction the
  /// collector counted, decoded for \p Triple (the traced program's).
  llvm::Expected<const DecodedCode *> chunk(const CodeChunk &Chunk, llvm::StringRef Triple,
                                            llvm::StringRef TracePath);

private:
  /// What is decoded after a segment's start.
  enum class Piece { Segment, SegmentAndNext, Padding };
  struct PerImage {
    std::unique_ptr<Disassembler> Dis;
    std::vector<std::unique_ptr<DecodedCode>> Pieces[3]; ///< by Piece, by segment
  };

  llvm::Expected<const DecodedCode *> get(const CodeImage &Image, uint32_t Segment,
                                          Piece What);

  DecodedCode Empty;

  llvm::DenseMap<const CodeImage *, PerImage> Images;
  std::unique_ptr<Disassembler> ChunkDis;
  std::vector<std::unique_ptr<DecodedCode>> Chunks; ///< by chunk id
};

} // namespace mlgo
