/// \file
/// trace import: the importer of the chosen format feeds the same segment builder and
/// .bbtrace writer as `trace record`, through synthesized superblocks and runs, which
/// are checked against the binary's code on the way.
#include "CodeLengthCheck.h"
#include "SegmentTrace.h"
#include "SegmentTraceListener.h"
#include "TraceImporters.h"
#include "WrittenTrace.h"
#include "code/CodeImage.h"
#include "support/InputFile.h"

#include <chrono>

namespace mlgo {

llvm::Expected<TraceImportResult> runTraceImport(const TraceImportOptions &Opts) {
  auto Start = std::chrono::steady_clock::now();
  // (The drmemtrace importer checks the files it finds in a directory, too.)
  if (llvm::Error E = checkOutputOutsideInputs(Opts.Output, {Opts.Binary, Opts.Input,
                                                             Opts.ModulesLog}))
    return E;
  auto Image = CodeImage::loadBinary(Opts.Binary);
  if (!Image)
    return Image.takeError();
  auto Writer = SegmentTraceWriter::create(Opts.Output, describeImage(*Image));
  if (!Writer)
    return Writer.takeError();
  SegmentTraceListener Builder(*Image, **Writer);
  auto Check = CodeLengthCheck::create(Opts.Binary, Opts.Input, Builder);
  if (!Check)
    return Check.takeError();
  RunSynthesizer Runs(**Check);
  ImportSink Sink{**Check, Runs, Builder};
  llvm::Error Err = Opts.Format == ImportFormat::Lackey ? importLackey(Opts, Sink)
                                                         : importDrmemtrace(Opts, Sink);
  if (Err)
    return Err; // the writer's destructor removes the temporary file
  if (llvm::Error E = Sink.endThread())
    return E;
  if (llvm::Error E = (*Writer)->finish())
    return E;

  TraceImportResult Result{describeWrittenTrace(**Writer, Opts.Output, Start)};
  Result.Threads = Runs.threads();
  Result.InputFiles = Sink.InputFiles;
  return Result;
}

Json TraceImportResult::toJSON() const {
  return Json{{"format", "mlgo-ra.trace-import.summary"},
              {"version", 1},
              {"instructions", Instructions},
              {"events", Events},
              {"threads", Threads},
              {"input_files", InputFiles},
              {"bytes", Bytes},
              {"seconds", Seconds}};
}

} // namespace mlgo
