/// \file
/// The collector listener behind `trace record` and `trace import`: feeds the segment
/// builder and names, in the .bbtrace, the modules of unmapped code.
#pragma once

#include "SegmentBuilder.h"
#include "SegmentTrace.h"

namespace mlgo {

class SegmentTraceListener : public CollectorStreamListener {
public:
  SegmentTraceListener(SegmentBuilder &Builder, SegmentTraceWriter &Writer)
      : Builder(Builder), Writer(Writer) {}
  llvm::Error onModule(const CollectorModule &M) override {
    if (llvm::Error E = Writer.defineModule(M.Id, M.Path))
      return E;
    return Builder.onModule(M);
  }
  llvm::Error onSuperblock(const CollectorSuperblock &S, uint32_t Index) override {
    return Builder.onSuperblock(S, Index);
  }
  llvm::Error onRun(const CollectorRun &R) override { return Builder.onRun(R); }

private:
  SegmentBuilder &Builder;
  SegmentTraceWriter &Writer;
};

} // namespace mlgo
