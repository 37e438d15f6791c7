/// \file
/// A program a run trains on: its subset corpus, its trace and the binary the trace was
/// recorded on. A run with several (train --job, --job-file) names each one.
#pragma once

#include "replay/fast/SpanSettings.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace mlgo {

/// One program of a run with several (train --job, --job-file).
struct TrainProgram {
  std::string Name; ///< unique in the run; shown in the log, the summary and the report
  std::string Corpus, Trace, Baseline;
  /// The cycles a native run of the baseline takes (replay's --native-cycles): the
  /// program's rewards are then speedups of its whole run (replay/WholeRun.h).
  std::optional<double> NativeCycles;
  /// The shard its rewards replay: set by the run from the trace (as
  /// EvaluationOptions::Spans in a classic run); none: EvaluationOptions::Spans.
  std::optional<SpanSettings> Spans;
};

/// Whether the programs' names are unique and usable as directory names.
llvm::Error checkProgramNames(const std::vector<TrainProgram> &Programs);

/// Reads a job file (train --job-file): a JSON list of {"name" (optional: the trace's
/// stem), "corpus", "trace", "baseline", "native_cycles" (optional)}, relative paths
/// from the file's directory.
llvm::Expected<std::vector<TrainProgram>> readJobFile(llvm::StringRef Path);

/// A program named after its trace's file name without extension (NAME= unless given).
TrainProgram namedProgram(std::string Name, std::string Corpus, std::string Trace,
                          std::string Baseline);

/// Whether \p Cycles, a program's native cycles from \p Where, is a finite number above 0.
llvm::Error checkNativeCycles(double Cycles, llvm::StringRef Where);

} // namespace mlgo
