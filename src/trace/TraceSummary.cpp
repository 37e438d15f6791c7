/// \file
/// trace show: one pass over a .bbtrace, counting instructions per thread, function,
/// block and unmapped module.
#include "TracePass.h"
#include "TraceSummarizer.h"

#include <algorithm>

namespace mlgo {
namespace {

std::vector<std::pair<std::string, uint64_t>>
hottest(std::map<std::string, uint64_t> Counts, size_t Top) {
  std::vector<std::pair<std::string, uint64_t>> Sorted(Counts.begin(), Counts.end());
  std::stable_sort(Sorted.begin(), Sorted.end(),
                   [](const auto &A, const auto &B) { return A.second > B.second; });
  if (Sorted.size() > Top)
    Sorted.resize(Top);
  return Sorted;
}

} // namespace

TraceSummarizer::TraceSummarizer(const SegmentTraceReader &Reader)
    : Reader(Reader), PerSegment(Reader.segments().size()) {
  S.Path = Reader.path();
  S.Binary = Reader.header().BinaryPath;
  S.Identity = Reader.header().Identity;
}

void TraceSummarizer::onEvent(uint32_t Thread, const SegmentEvent &E) {
  ++S.Events;
  S.InstructionsByThread[Thread] += E.Count;
  if (E.What == SegmentEvent::Unmapped) {
    UnmappedById[E.Index] += E.Count;
    return;
  }
  if (E.What == SegmentEvent::UnmappedCode) {
    UnmappedById[Reader.chunks()[E.Index].Module] += E.Count;
    S.UnmappedCodeInstructions += E.Count;
    return;
  }
  PerSegment[E.Index] += E.Count;
  S.MappedInstructions += E.Count;
  S.PaddingInstructions += E.What == SegmentEvent::Padding ? E.Count : 0;
  S.PartialSegments += E.What == SegmentEvent::PartialSegment;
}

TraceSummary TraceSummarizer::finish(size_t Top) {
  const SegmentTraceHeader &H = Reader.header();
  const std::vector<CodeChunk> &Chunks = Reader.chunks();
  S.Instructions = Reader.instructions();
  for (auto &[Id, Count] : UnmappedById)
    S.UnmappedByModule[Reader.moduleName(Id)] += Count;
  S.UnmappedCodeKept = Reader.keepsUnmappedCode();
  S.CodeChunks = Chunks.size();
  for (const CodeChunk &C : Chunks)
    S.CodeChunkBytes += C.Bytes.size();
  std::map<std::string, uint64_t> Functions, Blocks;
  const auto &Names = Reader.segments();
  for (size_t I = 0; I < PerSegment.size(); ++I) {
    if (!PerSegment[I])
      continue;
    const TracedFunction &F = H.Functions[Names[I].Function];
    Functions[F.Key] += PerSegment[I];
    Blocks[F.Key + " block " + std::to_string(F.Blocks[Names[I].Block].ID)] += PerSegment[I];
  }
  S.HotFunctions = hottest(std::move(Functions), Top);
  S.HotBlocks = hottest(std::move(Blocks), Top);
  return std::move(S);
}

llvm::Expected<TraceSummary> summarizeTrace(llvm::StringRef Path, size_t Top) {
  return runTracePass<TraceSummarizer>(Path, Top);
}

Json TraceSummary::toJSON() const {
  auto Pairs = [](const std::vector<std::pair<std::string, uint64_t>> &List) {
    Json Out = Json::array();
    for (const auto &[Name, Count] : List)
      Out.push_back({{"name", Name}, {"instructions", Count}});
    return Out;
  };
  Json Threads = Json::object();
  for (const auto &[Id, Count] : InstructionsByThread)
    Threads[std::to_string(Id)] = Count;
  return Json{{"format", "mlgo-ra.trace-show.summary"},
              {"version", 1},
              {"trace", Path},
              {"binary", Binary},
              {"identity", Identity},
              {"instructions", Instructions},
              {"mapped_instructions", MappedInstructions},
              {"mapped_share", Instructions ? double(MappedInstructions) / Instructions : 0.0},
              {"padding_instructions", PaddingInstructions},
              {"partial_segments", PartialSegments},
              {"threads", Threads},
              {"unmapped_by_module", UnmappedByModule},
              {"unmapped_code_kept", UnmappedCodeKept},
              {"unmapped_code_instructions", UnmappedCodeInstructions},
              {"code_chunks", CodeChunks},
              {"code_chunk_bytes", CodeChunkBytes},
              {"hot_functions", Pairs(HotFunctions)},
              {"hot_blocks", Pairs(HotBlocks)}};
}

} // namespace mlgo
