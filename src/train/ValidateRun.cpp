/// \file
/// train --validate: validating the best policy of a finished or stopped run, with the
/// run's settings, without training.
#include "Train.h"
#include "Checkpoint.h"
#include "JobSet.h"
#include "RunDirectory.h"
#include "StartPolicy.h"
#include "Validation.h"
#include "support/Error.h"

#include "llvm/Support/FileSystem.h"

namespace mlgo {

namespace {

/// Whether \p Opts replays what the run of the checkpoint \p Value (at \p Path) did: its
/// corpus, trace, start policy, CPU and engine (the search's settings do not matter).
llvm::Error checkRunSettings(const Json &Value, const std::string &Path,
                             const TrainOptions &Opts) {
  auto Settings = getJsonField<Json>(Value, "settings", Path);
  if (!Settings)
    return Settings.takeError();
  Json Want = trainSettings(Opts);
  for (const char *Key : {"corpus", "trace", "jobs", "init", "cpu", "engine"}) {
    Json Have = Settings->contains(Key) ? (*Settings)[Key] : Json();
    Json Given = Want.contains(Key) ? Want[Key] : Json();
    if (Have != Given)
      return inputError(Path, "was written with {} {}, not {}; validate with the run's "
                              "settings",
                        Key, Have.is_null() ? "none" : dumpJson(Have, -1),
                        Given.is_null() ? "none" : dumpJson(Given, -1));
  }
  return llvm::Error::success();
}

} // namespace

llvm::Expected<Json> runValidation(const TrainOptions &Opts) {
  const std::string &Out = Opts.Run.Output;
  std::string CheckpointPath = Out + "/" + TrainCheckpointFile;
  if (!llvm::sys::fs::exists(CheckpointPath))
    return inputError(CheckpointPath, "does not exist: no training run to validate");
  auto Value = readJsonFile(CheckpointPath);
  if (!Value)
    return Value.takeError();
  if (llvm::Error E = checkCheckpointFormat(*Value, CheckpointPath))
    return E;
  RunLock Lock(Out);
  if (!Lock.held())
    return inputError(Out, "is in use by another training run");
  if (llvm::Error E = checkRunSettings(*Value, CheckpointPath, Opts))
    return E;
  auto Steps = getJsonField<uint64_t>(*Value, "next_step", CheckpointPath);
  if (!Steps)
    return Steps.takeError();
  if (!*Steps)
    return inputError(Out, "has no trained step yet: nothing to validate");
  auto Jobs = JobSet::create(Opts, /*Replaying=*/false);
  if (!Jobs)
    return Jobs.takeError();
  auto Start = loadStartPolicy(Opts.Search.Init);
  if (!Start)
    return Start.takeError();
  if (llvm::Error E = (*Jobs)->makeEvaluators(""))
    return E;
  auto Validated = validateJobs(**Jobs, *Start, *Steps);
  if (!Validated)
    return Validated.takeError();
  if (llvm::Error E = appendRecord(Out + "/" + TrainLogFile, *Validated))
    return E;
  return Validated;
}

} // namespace mlgo
