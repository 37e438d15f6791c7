/// \file
/// Matching a variant's functions, blocks and segments to a trace's.
#include "replay/refill/VariantCode.h"

#include <algorithm>
#include <fmt/format.h>
#include <unordered_map>

namespace mlgo {

namespace {

/// Whether \p Block of \p Image and a traced block of \p TracedSegments segments
/// differ only by code after the block's last call (see SegmentSource): the register
/// allocator adds no calls or branches, so one of them ends at that call and the other
/// has one segment more, which ends where the block does.
bool differsAfterLastCall(const CodeImage &Image, const CodeBlock &Block,
                          size_t TracedSegments) {
  auto Segments = Image.segments().slice(Block.FirstSegment, Block.NumSegments);
  if (Segments.size() == TracedSegments + 1) // the image has code after the call
    return Segments.size() >= 2 && Segments.back().End == SegmentEnd::BlockEnd &&
           Segments[Segments.size() - 2].End == SegmentEnd::Call;
  if (Segments.size() + 1 == TracedSegments) // the recorded binary has code after it
    return Segments.back().End == SegmentEnd::Call;
  return false;
}

/// Why \p Image's function \p Key cannot stand for the traced function \p Traced, or
/// an empty string if it can. On success, \p Matched holds the image's block of each
/// traced block, in the trace's block order.
std::string compareFunction(const TracedFunction &Traced, const CodeImage &Image,
                            std::vector<const CodeBlock *> &Matched) {
  auto Index = Image.findFunction(Traced.Key);
  if (!Index)
    return "missing";
  const CodeFunction &F = Image.functions()[*Index];
  // Block IDs come from files, the trace's and the variant's, and may be any value: no
  // llvm::DenseMap, whose reserved keys (~0 and ~0 - 1) crash a lookup.
  std::unordered_map<uint32_t, const CodeBlock *> ById;
  for (const CodeBlock &B : Image.blocks().slice(F.FirstBlock, F.NumBlocks))
    ById[B.ID] = &B;
  if (ById.size() != Traced.Blocks.size())
    return fmt::format("CFG changed: {} blocks, the trace has {}", ById.size(),
                       Traced.Blocks.size());
  Matched.clear();
  for (const TracedBlock &TB : Traced.Blocks) {
    auto It = ById.find(TB.ID);
    if (It == ById.end())
      return fmt::format("CFG changed: no block {}", TB.ID);
    size_t Segments = TB.SegmentInstructions.size();
    if (It->second->NumSegments != Segments &&
        !differsAfterLastCall(Image, *It->second, Segments))
      return fmt::format("CFG changed: block {} has {} segments, the trace has {}", TB.ID,
                         It->second->NumSegments, Segments);
    Matched.push_back(It->second);
  }
  return "";
}

/// Where traced segment \p InBlock of a block of \p TracedSegments runs in \p Block.
SegmentSource sourceOf(const CodeImage &Image, const CodeBlock &Block, uint32_t InBlock,
                       size_t TracedSegments) {
  bool Last = InBlock + 1 == TracedSegments;
  return {&Image, Block.FirstSegment + std::min(InBlock, Block.NumSegments - 1),
          Last ? Block.NumSegments - InBlock : 1};
}

} // namespace

VariantCode VariantCode::match(const SegmentTraceHeader &Header,
                               llvm::ArrayRef<SegmentTraceReader::SegmentName> Segments,
                               const std::vector<bool> &Traced, const CodeImage &Variant,
                               const CodeImage *Fallback) {
  VariantCode Code;
  Code.Variant = &Variant;
  Code.Sources.resize(Segments.size());
  // Per traced function: the image chosen and its block of each traced block.
  std::vector<const CodeImage *> ImageOf(Header.Functions.size(), nullptr);
  std::vector<std::vector<const CodeBlock *>> Blocks(Header.Functions.size());
  for (uint32_t F = 0; F < Header.Functions.size(); ++F) {
    if (F >= Traced.size() || !Traced[F])
      continue;
    const TracedFunction &TF = Header.Functions[F];
    std::string Why = compareFunction(TF, Variant, Blocks[F]);
    if (Why.empty()) {
      ImageOf[F] = &Variant;
      continue;
    }
    Code.Mismatches.push_back({TF.Key, Why});
    std::string FallbackWhy = Fallback ? compareFunction(TF, *Fallback, Blocks[F]) : Why;
    if (FallbackWhy.empty())
      ImageOf[F] = Fallback;
    else
      Code.Unresolved.push_back({TF.Key, Why});
  }
  for (uint32_t S = 0; S < Segments.size(); ++S) {
    const auto &Name = Segments[S];
    if (const CodeImage *Image = ImageOf[Name.Function])
      Code.Sources[S] = sourceOf(
          *Image, *Blocks[Name.Function][Name.Block], Name.SegmentInBlock,
          Header.Functions[Name.Function].Blocks[Name.Block].SegmentInstructions.size());
  }
  return Code;
}

} // namespace mlgo
