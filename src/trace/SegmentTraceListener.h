/// \file
/// The segment builder behind `trace record` and `trace import`, which also names, in
/// the .bbtrace, the modules of unmapped code. (Deriving rather than forwarding keeps a
/// virtual call off the per-run path.)
#pragma once

#include "LoadSites.h"
#include "SegmentBuilder.h"
#include "SegmentTrace.h"

namespace mlgo {

class SegmentTraceListener final : public SegmentBuilder {
public:
  SegmentTraceListener(const CodeImage &Image, SegmentTraceWriter &Writer,
                       bool KeepUnmappedCode = false)
      : SegmentBuilder(Image, Writer, KeepUnmappedCode), Writer(Writer), Sites(Image) {}
  /// Keeps the load sites of the traced binary for loadSites().
  llvm::Error onLoadSite(const CollectorLoadSite &Site) override {
    if (binaryModule())
      Sites.add(Site.Address - loadBias(), {Site.Executions, Site.Dependent});
    return llvm::Error::success();
  }
  const LoadSites &loadSites() const { return Sites; }

  llvm::Error onModule(const CollectorModule &M) override {
    if (llvm::Error E = Writer.defineModule(M.Id, M.Path))
      return E;
    return SegmentBuilder::onModule(M);
  }

private:
  SegmentTraceWriter &Writer;
  LoadSites Sites;
};

} // namespace mlgo
