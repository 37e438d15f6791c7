/// \file
/// Fuzzes `trace import --format drmemtrace`: the input is one thread's .trace file;
/// its modules.log is MLGO_FUZZ_MODULES_LOG (a real one, from the import tests).
#include "TraceImportFuzzer.h"

using namespace mlgo;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const std::string ModulesLog = fuzz::requiredEnvironment("MLGO_FUZZ_MODULES_LOG");
  fuzz::importOnce(ImportFormat::Drmemtrace, Data, Size, "drmemtrace.app.1.0000.trace",
                   ModulesLog);
  return 0;
}
