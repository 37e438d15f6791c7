/// \file
/// trace import: derive a segment trace (.bbtrace) from an instruction trace that
/// another tool recorded, instead of running the program under our Valgrind tool.
///
/// Formats:
/// - lackey: the log of `valgrind --tool=lackey --trace-mem=yes --log-file=F`. Lackey
///   names no modules and no threads: the binary is placed at Valgrind's load address
///   (0x108000 for a PIE, i.e. an ET_DYN binary; its link addresses for ET_EXEC); every
///   instruction is thread 1's, and code outside the binary's executable segments
///   counts as unmapped module 0 ("no module"). Run Lackey with --vex-guest-chase=no,
///   or it also logs instructions of branch arms that never ran.
/// - drmemtrace: DynamoRIO's offline traces after raw2trace: one file per thread
///   (`*.trace`, `*.trace.gz`, or `*.trace.zip` whose entries are read in order), of
///   12-byte records, plus the run's `modules.log` for module addresses.
#pragma once

#include "Trace.h"
#include "support/Json.h"
#include "llvm/Support/Error.h"
#include <string>

namespace mlgo {

enum class ImportFormat { Lackey, Drmemtrace };

struct TraceImportOptions {
  /// The binary (with a BB address map) that ran when the trace was recorded.
  std::string Binary;
  ImportFormat Format = ImportFormat::Lackey;
  /// lackey: the log file. drmemtrace: one thread's trace file, or a directory holding
  /// them (DynamoRIO's output directory, whose trace/ subdirectory is used if present).
  std::string Input;
  std::string Output;
  /// drmemtrace: the modules.log to use; by default it is looked for beside the input,
  /// in its trace/, raw/ and aux/ subdirectories, then in ../raw and ../aux.
  std::string ModulesLog;
};

struct TraceImportResult : WrittenTrace {
  uint32_t Threads = 0;
  uint32_t InputFiles = 0;
  Json toJSON() const;
};

/// Reads the input and writes Opts.Output only if all of it was read; an unreadable,
/// truncated or malformed input is an InputError naming the file.
llvm::Expected<TraceImportResult> runTraceImport(const TraceImportOptions &Opts);

} // namespace mlgo
