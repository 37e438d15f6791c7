/// \file
/// Decoded instructions for refill: of a code image's segments and of the padding after
/// them, and of a trace's chunks of unmapped code; each decoded once and cached.
#pragma once

#include "trace/CodeChunk.h"
#include "trace/CodeImage.h"
#include "trace/Disassembler.h"

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
};

class DecodedCodeCache {
public:
  llvm::Expected<const DecodedCode *> segment(const CodeImage &Image, uint32_t Segment) {
    return get(Image, Segment, false);
  }
  llvm::Expected<const DecodedCode *> paddingAfter(const CodeImage &Image,
                                                   uint32_t Segment) {
    return get(Image, Segment, true);
  }
  /// The instructions of \p Chunk of the trace at \p TracePath, one per instruction the
  /// collector counted, decoded for \p Triple (the traced program's).
  llvm::Expected<const DecodedCode *> chunk(const CodeChunk &Chunk, llvm::StringRef Triple,
                                            llvm::StringRef TracePath);

private:
  struct PerImage {
    std::unique_ptr<Disassembler> Dis;
    std::vector<std::unique_ptr<DecodedCode>> Segments, Paddings;
  };

  llvm::Expected<const DecodedCode *> get(const CodeImage &Image, uint32_t Segment,
                                          bool Padding);

  llvm::DenseMap<const CodeImage *, PerImage> Images;
  std::unique_ptr<Disassembler> ChunkDis;
  std::vector<std::unique_ptr<DecodedCode>> Chunks; ///< by chunk id
};

} // namespace mlgo
