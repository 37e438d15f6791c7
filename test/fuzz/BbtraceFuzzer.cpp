/// \file
/// Fuzzes the .bbtrace reader the way `trace show` (summary and --events) and replay's
/// profile read a trace.
#include "FuzzInput.h"
#include "trace/Trace.h"
#include "trace/TraceProfile.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlgo;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Path = fuzz::writeInput(Data, Size, "input.bbtrace");
  fuzz::drop(summarizeTrace(Path));
  fuzz::drop(printTraceEvents(Path, llvm::nulls()));
  fuzz::drop(profileTrace(Path));
  return 0;
}
