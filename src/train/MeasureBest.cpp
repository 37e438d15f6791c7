/// \file
/// train --measure-run: building a run's best policy (with a shortlist, each policy on
/// it) and its start policy, and measuring them natively against `default`.
#include "Train.h"
#include "RunDirectory.h"
#include "support/Error.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <fmt/format.h>

namespace mlgo {

namespace {

/// What the measurement builds: the best policy, the rest of the shortlist, the start
/// policy.
std::vector<NativeCandidate> nativeCandidates(const TrainOptions &Opts,
                                              const std::string &Best) {
  // With a shortlist, every policy on it (shortlist/1.json is best.json's): the
  // measurement chooses among them.
  std::vector<NativeCandidate> Candidates = {{"best", Best}};
  for (unsigned K = 2; K <= Opts.Search.ShortlistSize; ++K) {
    std::string Listed =
        fmt::format("{}/{}/{}.json", Opts.Run.Output, TrainShortlistDirectory, K);
    if (llvm::sys::fs::exists(Listed))
      Candidates.push_back({fmt::format("s{}", K), Listed});
  }
  if (Opts.Search.Init != "default")
    Candidates.push_back({"start", Opts.Search.Init});
  return Candidates;
}

} // namespace

llvm::Error checkNativeMeasurement(const TrainOptions &Opts) {
  if (!Opts.Native.enabled())
    return llvm::Error::success();
  if (!Opts.Inputs.Programs.empty())
    return inputError("--measure-run", "measures the program of --corpus, --trace and "
                                       "--baseline, not a run with jobs");
  if (Opts.Native.Corpus.empty() || Opts.Native.Link.empty())
    return inputError("--measure-run", "needs --measure-corpus (every module of the "
                                       "program) and --measure-link");
  if (auto Args = nativeRunArguments(Opts.Native.Run); !Args)
    return Args.takeError();
  return llvm::Error::success();
}

llvm::Expected<Json> measureBestNatively(const TrainOptions &Opts) {
  if (llvm::Error E = checkNativeMeasurement(Opts))
    return E;
  const std::string &Out = Opts.Run.Output;
  std::string Best = Out + "/" + TrainBestPolicyFile;
  if (!llvm::sys::fs::exists(Best))
    return inputError(Out, "has no best policy yet: nothing to measure");
  // The run's compiler and limits; the program named as the traced binary is.
  NativeMeasureOptions Native = Opts.Native;
  if (Native.Program.empty())
    Native.Program = llvm::sys::path::filename(Opts.Inputs.Baseline).str();
  if (Native.CacheDir.empty())
    Native.CacheDir = Opts.Evaluation.CacheDir;
  Native.Clang = Opts.Evaluation.Clang;
  Native.Jobs = Opts.Evaluation.Jobs;
  Native.TimeoutSeconds = Opts.Evaluation.CompileTimeoutSeconds;
  auto Record = measureNatively(Native, nativeCandidates(Opts, Best), Out + "/native");
  if (!Record)
    return Record.takeError();
  if (Opts.Search.ShortlistSize)
    if (llvm::Error E = chooseNatively(*Record, Out + "/" + TrainChosenPolicyFile))
      return E;
  if (llvm::Error E = appendRecord(Out + "/" + TrainLogFile, *Record))
    return E;
  return Record;
}

} // namespace mlgo
