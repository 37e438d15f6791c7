/// \file
/// Fuzzes what `train --resume` reads back: the checkpoint (of a run with default
/// settings, sized by its own parameter array so that a well-formed one can pass), the
/// log it is truncated to, and a step's evaluation record as MPI ranks exchange them.
/// With MLGO_FUZZ_WRITE_SEED=F it writes a checkpoint as train writes it to F and exits.
#include "Checkpoint.h"
#include "FuzzInput.h"
#include "RunDirectory.h"
#include "StepEvaluations.h"
#include "support/Warning.h"

#include <cstdlib>

using namespace mlgo;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  setWarningSink([](llvm::StringRef) {}); // a log's unfinished line is expected here
  if (const char *Seed = std::getenv("MLGO_FUZZ_WRITE_SEED")) {
    Checkpoint C;
    C.NextStep = 2;
    C.Parameters = {0.25f, -1.5f, 3.0f};
    C.BestParameters = {0.5f, -1.0f, 2.0f};
    C.Optimizer = Adam(3, 0.005);
    C.BestSpeedup = 0.0125;
    if (llvm::Error E = writeJsonFile(Seed, C.toJSON(TrainOptions())))
      std::abort();
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Path = fuzz::writeInput(Data, Size, "checkpoint.json");
  size_t Parameters = 3;
  if (auto Value = readJsonFile(Path)) {
    if (Value->is_object() && Value->contains("parameters") &&
        (*Value)["parameters"].is_array())
      Parameters = (*Value)["parameters"].size();
    fuzz::drop(StepEvaluation::fromJSON(*Value));
  } else {
    llvm::consumeError(Value.takeError());
  }
  fuzz::drop(readCheckpoint(Path, TrainOptions(), Parameters));
  fuzz::drop(truncateLog(fuzz::writeInput(Data, Size, "log.jsonl"), 2));
  return 0;
}
