/// \file
/// One-shot replays through a ReplayContext.
#include "replay/Replay.h"

namespace mlgo {

llvm::Expected<ReplayResult> runReplay(const ReplayOptions &Opts, llvm::StringRef Code) {
  auto Context = ReplayContext::create(Opts);
  if (!Context)
    return Context.takeError();
  return (*Context)->predict(Code);
}

llvm::Expected<ReplayComparison> compareReplays(const ReplayOptions &Opts,
                                                llvm::StringRef Baseline,
                                                llvm::StringRef Candidate) {
  auto Context = ReplayContext::create(Opts);
  if (!Context)
    return Context.takeError();
  return (*Context)->compare(Baseline, Candidate);
}

} // namespace mlgo
