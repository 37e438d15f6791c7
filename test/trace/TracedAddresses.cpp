/// \file
/// Deriving a trace and its instruction addresses from one pass over a raw stream.
#include "TracedAddresses.h"
#include "CollectorStream.h"
#include "SegmentBuilder.h"
#include "SegmentTrace.h"
#include "TestSupport.h"

using namespace mlgo;

namespace {

/// From one raw collector stream: the .bbtrace (as trace record writes it), and,
/// instruction by instruction, the link-time address of every traced instruction of the
/// binary that lies in a block or in the padding after one.
struct Recording : CollectorStreamListener {
  Recording(const CodeImage &Image, SegmentBuilder &Builder, SegmentTraceWriter &Writer,
            const CollectorStreamReader &Reader)
      : Image(Image), Builder(Builder), Writer(Writer), Reader(Reader) {}

  llvm::Error onModule(const CollectorModule &M) override {
    if (M.IsMainExecutable)
      Binary = M;
    if (llvm::Error E = Writer.defineModule(M.Id, M.Path))
      return E;
    return Builder.onModule(M);
  }
  llvm::Error onSuperblock(const CollectorSuperblock &S, uint32_t Index) override {
    return Builder.onSuperblock(S, Index);
  }
  llvm::Error onRun(const CollectorRun &R) override {
    const CollectorSuperblock &S = Reader.superblocks()[R.SuperblockIndex];
    uint64_t Address = S.Address;
    for (uint32_t I = 0; I < R.NumInstructions; ++I) {
      uint64_t Link = Address - Binary.LoadBias;
      if (S.ModuleId == Binary.Id &&
          (Image.findSegment(Link) || Image.findSegmentAtOrBefore(Link)))
        Mapped.push_back(Link);
      Address += S.InstrLengths[I];
    }
    return Builder.onRun(R);
  }

  const CodeImage &Image;
  SegmentBuilder &Builder;
  SegmentTraceWriter &Writer;
  const CollectorStreamReader &Reader;
  CollectorModule Binary;
  std::vector<uint64_t> Mapped;
};

} // namespace

namespace mlgo::test {

std::vector<uint64_t> deriveTraceWithAddresses(const std::string &Raw,
                                               const std::string &Binary,
                                               const std::string &Trace) {
  CodeImage Image = requireOk(CodeImage::loadBinary(Binary));
  auto Writer = requireOk(SegmentTraceWriter::create(Trace, describeImage(Image)));
  auto Reader = requireOk(CollectorStreamReader::open(Raw));
  SegmentBuilder Builder(Image, *Writer);
  Recording Listener(Image, Builder, *Writer, *Reader);
  requireSuccess(Reader->run(Listener));
  requireSuccess(Builder.finish());
  requireSuccess(Writer->finish());
  return std::move(Listener.Mapped);
}

} // namespace mlgo::test
