/// \file
/// The importers behind runTraceImport, one per input format (LackeyImport.cpp,
/// DrmemtraceImport.cpp). Each reads its input and feeds an ImportSink: the modules
/// first, then every executed instruction.
#pragma once

#include "RunSynthesizer.h"
#include "SegmentBuilder.h"
#include "TraceImport.h"

namespace mlgo {

struct ImportSink {
  /// Receives the module records (and names them in the trace).
  CollectorStreamListener &Modules;
  RunSynthesizer &Runs;
  SegmentBuilder &Builder;
  uint32_t InputFiles = 0;

  /// Ends a thread's input: emits what is pending, so that one input file's events
  /// stay together in the trace.
  llvm::Error endThread() {
    if (llvm::Error E = Runs.flush())
      return E;
    return Builder.finish();
  }
};

llvm::Error importLackey(const TraceImportOptions &Opts, ImportSink &Sink);
llvm::Error importDrmemtrace(const TraceImportOptions &Opts, ImportSink &Sink);

} // namespace mlgo
