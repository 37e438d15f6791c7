/// \file
/// Refilling a trace: events to decoded instructions, each segment decoded once.
#include "Refill.h"
#include "support/Error.h"
#include "trace/Disassembler.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/TargetParser/Triple.h"

namespace mlgo {

RefillSink::~RefillSink() = default;

namespace {

struct DecodedCode {
  std::vector<llvm::MCInst> Instructions;
  std::vector<uint64_t> Addresses;
  std::vector<uint32_t> Offsets; ///< byte offset of each instruction from the start
};

/// The decoded instructions of segments and of the padding after them, per image.
class DecodedCodeCache {
public:
  llvm::Expected<const DecodedCode *> segment(const CodeImage &Image, uint32_t Segment) {
    return get(Image, Segment, false);
  }
  llvm::Expected<const DecodedCode *> paddingAfter(const CodeImage &Image,
                                                   uint32_t Segment) {
    return get(Image, Segment, true);
  }

private:
  struct PerImage {
    std::unique_ptr<Disassembler> Dis;
    std::vector<std::unique_ptr<DecodedCode>> Segments, Paddings;
  };

  llvm::Expected<const DecodedCode *> get(const CodeImage &Image, uint32_t Segment,
                                          bool Padding) {
    PerImage &P = Images[&Image];
    if (!P.Dis) {
      auto Dis = Disassembler::create(llvm::Triple(Image.triple()));
      if (!Dis)
        return Dis.takeError();
      P.Dis = std::move(*Dis);
      P.Segments.resize(Image.segments().size());
      P.Paddings.resize(Image.segments().size());
    }
    std::unique_ptr<DecodedCode> &Slot = (Padding ? P.Paddings : P.Segments)[Segment];
    if (Slot)
      return Slot.get();
    const CodeSegment &S = Image.segments()[Segment];
    uint64_t Address = Padding ? S.Address + S.Size : S.Address;
    llvm::ArrayRef<uint8_t> Bytes = Padding ? Image.paddingAfter(Segment) : Image.code(S);
    auto Code = std::make_unique<DecodedCode>();
    for (uint32_t Offset = 0; Offset < Bytes.size();) {
      llvm::MCInst Inst;
      auto Size = P.Dis->decode(Bytes.drop_front(Offset), Address + Offset, Inst);
      if (!Size) {
        if (Padding)
          break; // not code after all: replay what decoded
        return inputError(Image.path(), "cannot decode the instruction at {:#x}",
                          Address + Offset);
      }
      Code->Instructions.push_back(Inst);
      Code->Addresses.push_back(Address + Offset);
      Code->Offsets.push_back(Offset);
      Offset += *Size;
    }
    Slot = std::move(Code);
    return Slot.get();
  }

  llvm::DenseMap<const CodeImage *, PerImage> Images;
};

} // namespace

llvm::Expected<RefillCounts> refillTrace(SegmentTraceReader &Trace, const VariantCode &Code,
                                         RefillSink &Sink,
                                         const std::function<void(uint64_t)> &OnProgress) {
  const std::string &Recorded = Trace.header().Identity;
  const auto &Names = Trace.segments();
  DecodedCodeCache Cache;
  RefillCounts Counts;
  uint64_t NextProgress = 1 << 20;
  llvm::Error Err = forEachEvent(Trace, [&](uint32_t ThreadId,
                                            const SegmentEvent &E) -> llvm::Error {
    Counts.TraceInstructions += E.Count;
    if (OnProgress && Counts.TraceInstructions >= NextProgress) {
      OnProgress(Counts.TraceInstructions);
      NextProgress = Counts.TraceInstructions + (1 << 20);
    }
    if (E.What == SegmentEvent::Unmapped) {
      Counts.Unmapped += E.Count;
      return llvm::Error::success();
    }
    const SegmentSource &Source = Code.source(E.Index);
    if (!Source.Image)
      return stageError("trace segment {} of {} has no code", E.Index,
                        Trace.header().Functions[Names[E.Index].Function].Key);
    auto Decoded = E.What == SegmentEvent::Padding
                       ? Cache.paddingAfter(*Source.Image, Source.Segment)
                       : Cache.segment(*Source.Image, Source.Segment);
    if (!Decoded)
      return Decoded.takeError();
    const DecodedCode &D = **Decoded;
    size_t First = 0, Count = D.Instructions.size();
    if (E.What == SegmentEvent::Padding) {
      Count = std::min<uint64_t>(Count, E.Count);
    } else if (E.What == SegmentEvent::PartialSegment) {
      ++Counts.PartialSegments;
      Count = std::min<uint64_t>(Count, E.Count);
      if (Source.Image->identity() == Recorded) {
        // Exact: start at the recorded byte offset.
        auto At = std::lower_bound(D.Offsets.begin(), D.Offsets.end(), E.Offset);
        First = At - D.Offsets.begin();
        Count = std::min(Count, D.Instructions.size() - First);
      } else if (E.Offset != 0) {
        First = D.Instructions.size() - Count;
      }
    }
    if (!Count)
      return llvm::Error::success();
    Counts.Refilled += Count;
    return Sink.onCode(ThreadId, {Names[E.Index].Function,
                                  llvm::ArrayRef(D.Instructions).slice(First, Count),
                                  llvm::ArrayRef(D.Addresses).slice(First, Count)});
  });
  if (Err)
    return Err;
  if (OnProgress)
    OnProgress(Counts.TraceInstructions);
  return Counts;
}

} // namespace mlgo
