/// \file
/// Fuzzes `trace import --format lackey`: the input is Lackey's log.
#include "TraceImportFuzzer.h"

using namespace mlgo;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  fuzz::importOnce(ImportFormat::Lackey, Data, Size, "lackey.log");
  return 0;
}
