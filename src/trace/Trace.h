/// \file
/// The trace stage: record one run of a real program under the mlgotrace Valgrind tool,
/// streaming its instruction trace straight into a segment trace (.bbtrace); and
/// summarize a recorded trace. (TraceImport.h imports other tools' traces.)
#pragma once

#include "support/Json.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <string>
#include <vector>

namespace mlgo {

struct TraceRecordOptions {
  /// The binary (with a BB address map) whose code the segments refer to: the program
  /// that Command runs.
  std::string Binary;
  /// The program and its arguments; it keeps this process's stdin, stdout and stderr.
  std::vector<std::string> Command;
  std::string Output;
  std::string Valgrind = "valgrind";
  /// The VALGRIND_LIB directory holding the mlgotrace tool.
  std::string ValgrindLibDir;
  /// A progress line (instructions so far) on stderr, if it is a terminal and the
  /// recording takes more than a second.
  bool ShowProgress = true;
  /// Keep the bytes of code that ran outside mapped code (libraries, startup code) for
  /// replay --unmapped replay: a version 2 .bbtrace, larger.
  bool KeepUnmappedCode = false;
  /// Record, per data load of the binary, how often it read what a recent store wrote
  /// (a version 3 .bbtrace): replay's flow engine lets the others go ahead of stores.
  bool RecordLoadDependences = true;
};

/// What a written .bbtrace holds, and how long making it took (record and import).
struct WrittenTrace {
  uint64_t Instructions = 0;
  uint64_t Events = 0;
  uint64_t Bytes = 0;
  double Seconds = 0;
};

struct TraceRecordResult : WrittenTrace {
  int ProgramExitCode = 0;
  bool UnmappedCodeKept = false;
  uint64_t CodeChunks = 0;
  /// With load dependences: the binary's data loads that ran, their executions, and
  /// how many of those read what a recent store wrote.
  bool LoadDependencesKept = false;
  uint64_t DataLoads = 0, DataLoadExecutions = 0, DependentExecutions = 0;
  /// What Valgrind logged in a recording that succeeded (a summary line), if anything.
  std::string ValgrindMessages;
  Json toJSON() const;
};

/// Runs the program under Valgrind and writes Opts.Output only if the whole run was
/// recorded. A program killed by a signal, or a stream without its end, is an error.
llvm::Expected<TraceRecordResult> runTraceRecord(const TraceRecordOptions &Opts);

struct TraceSummary {
  std::string Path, Binary, Identity;
  uint64_t Instructions = 0, Events = 0, MappedInstructions = 0, PaddingInstructions = 0,
           PartialSegments = 0;
  std::map<uint32_t, uint64_t> InstructionsByThread;
  std::map<std::string, uint64_t> UnmappedByModule;
  /// Whether unmapped code was kept as bytes (trace record --keep-unmapped): the
  /// instructions that can be replayed, and the chunks of code that hold them.
  bool UnmappedCodeKept = false;
  uint64_t UnmappedCodeInstructions = 0, CodeChunks = 0, CodeChunkBytes = 0;
  /// The hottest functions and blocks, by instructions, most first.
  std::vector<std::pair<std::string, uint64_t>> HotFunctions, HotBlocks;
  Json toJSON() const;
};

/// Reads a whole .bbtrace; keeps the \p Top hottest functions and blocks.
llvm::Expected<TraceSummary> summarizeTrace(llvm::StringRef Path, size_t Top = 10);

/// Prints every event of a .bbtrace in stored order, one line each:
/// "thread T: segment F block B segment S, N instructions", "partial ... from byte O",
/// "padding after ...", "unmapped in MODULE", or "unmapped code chunk C at ADDRESS in
/// MODULE".
llvm::Error printTraceEvents(llvm::StringRef Path, llvm::raw_ostream &OS);

} // namespace mlgo
