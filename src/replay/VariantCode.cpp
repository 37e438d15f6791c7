/// \file
/// Matching a variant's functions, blocks and segments to a trace's.
#include "VariantCode.h"

#include "llvm/ADT/DenseMap.h"
#include <fmt/format.h>

namespace mlgo {

namespace {

/// Why \p Image's function \p Key cannot stand for the traced function \p Traced, or
/// an empty string if it can. On success, \p FirstSegments holds the image's first
/// segment of each traced block, in the trace's block order.
std::string compareFunction(const TracedFunction &Traced, const CodeImage &Image,
                            std::vector<uint32_t> &FirstSegments) {
  auto Index = Image.findFunction(Traced.Key);
  if (!Index)
    return "missing";
  const CodeFunction &F = Image.functions()[*Index];
  llvm::DenseMap<uint32_t, const CodeBlock *> ById;
  for (const CodeBlock &B : Image.blocks().slice(F.FirstBlock, F.NumBlocks))
    ById[B.ID] = &B;
  if (ById.size() != Traced.Blocks.size())
    return fmt::format("CFG changed: {} blocks, the trace has {}", ById.size(),
                       Traced.Blocks.size());
  FirstSegments.clear();
  for (const TracedBlock &TB : Traced.Blocks) {
    auto It = ById.find(TB.ID);
    if (It == ById.end())
      return fmt::format("CFG changed: no block {}", TB.ID);
    if (It->second->NumSegments != TB.SegmentInstructions.size())
      return fmt::format("CFG changed: block {} has {} segments, the trace has {}", TB.ID,
                         It->second->NumSegments, TB.SegmentInstructions.size());
    FirstSegments.push_back(It->second->FirstSegment);
  }
  return "";
}

} // namespace

VariantCode VariantCode::match(const SegmentTraceHeader &Header,
                               llvm::ArrayRef<SegmentTraceReader::SegmentName> Segments,
                               const std::vector<bool> &Traced, const CodeImage &Variant,
                               const CodeImage *Fallback) {
  VariantCode Code;
  Code.Variant = &Variant;
  Code.Sources.resize(Segments.size());
  // Per traced function: the image chosen and its first segment of each block.
  std::vector<const CodeImage *> ImageOf(Header.Functions.size(), nullptr);
  std::vector<std::vector<uint32_t>> FirstSegments(Header.Functions.size());
  for (uint32_t F = 0; F < Header.Functions.size(); ++F) {
    if (F >= Traced.size() || !Traced[F])
      continue;
    const TracedFunction &TF = Header.Functions[F];
    std::string Why = compareFunction(TF, Variant, FirstSegments[F]);
    if (Why.empty()) {
      ImageOf[F] = &Variant;
      continue;
    }
    Code.Mismatches.push_back({TF.Key, Why});
    std::string FallbackWhy =
        Fallback ? compareFunction(TF, *Fallback, FirstSegments[F]) : Why;
    if (FallbackWhy.empty())
      ImageOf[F] = Fallback;
    else
      Code.Unresolved.push_back({TF.Key, Why});
  }
  for (uint32_t S = 0; S < Segments.size(); ++S) {
    const auto &Name = Segments[S];
    if (const CodeImage *Image = ImageOf[Name.Function])
      Code.Sources[S] = {Image, FirstSegments[Name.Function][Name.Block] + Name.SegmentInBlock};
  }
  return Code;
}

} // namespace mlgo
