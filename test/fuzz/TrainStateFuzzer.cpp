/// \file
/// Fuzzes what `train --resume` reads back: a line of log.jsonl as a step's evaluation
/// record, and a checkpoint's optimizer state.
#include "Adam.h"
#include "FuzzInput.h"
#include "StepEvaluations.h"
#include "support/Json.h"

using namespace mlgo;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Path = fuzz::writeInput(Data, Size, "checkpoint.json");
  auto Value = readJsonFile(Path);
  if (!Value) {
    llvm::consumeError(Value.takeError());
    return 0;
  }
  fuzz::drop(StepEvaluation::fromJSON(*Value));
  if (Value->is_object() && Value->contains("optimizer"))
    fuzz::drop(Adam::fromJSON((*Value)["optimizer"], Path));
  return 0;
}
