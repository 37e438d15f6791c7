/// \file
/// The trace import fuzzers share their set-up: the binary that "ran" (with a BB
/// address map) comes from MLGO_FUZZ_BINARY, as bench/fuzz builds it; the input's
/// bytes are the recorded trace.
#pragma once

#include "FuzzInput.h"
#include "trace/TraceImport.h"

#include <cstdio>
#include <cstdlib>

namespace mlgo::fuzz {

/// The environment variable \p Name, or a message and exit when it is missing.
inline std::string requiredEnvironment(const char *Name) {
  const char *Value = std::getenv(Name);
  if (!Value || !*Value) {
    std::fprintf(stderr, "fuzzer: set %s (bench/fuzz does)\n", Name);
    std::exit(2);
  }
  return Value;
}

inline void importOnce(ImportFormat Format, const uint8_t *Data, size_t Size,
                       const char *InputName, const std::string &ModulesLog = "") {
  static const std::string Binary = requiredEnvironment("MLGO_FUZZ_BINARY");
  TraceImportOptions Opts;
  Opts.Binary = Binary;
  Opts.Format = Format;
  Opts.Input = writeInput(Data, Size, InputName);
  Opts.Output = outputPath("imported.bbtrace");
  Opts.ModulesLog = ModulesLog;
  drop(runTraceImport(Opts));
}

} // namespace mlgo::fuzz
