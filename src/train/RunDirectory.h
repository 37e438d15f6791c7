/// \file
/// The training directory (train -o DIR): the files a run writes there, what makes a
/// directory a run's, so train never writes over a user's files; its lock; its
/// JSON-lines log.
#pragma once

#include "support/Json.h"

#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>

namespace mlgo {

inline constexpr const char *TrainLogFile = "log.jsonl";
inline constexpr const char *TrainCheckpointFile = "checkpoint.json";
inline constexpr const char *TrainPolicyFile = "policy.json";
inline constexpr const char *TrainBestPolicyFile = "best.json";
/// With --shortlist: the shortlist's index ([{"policy", "speedup", "step"}], best
/// first) and its policies, shortlist/1.json (best.json's policy) to shortlist/K.json.
inline constexpr const char *TrainShortlistFile = "shortlist.json";
/// With a shortlist and --measure-run: the policy measured fastest, faster than
/// `default` above noise (absent when none was).
inline constexpr const char *TrainChosenPolicyFile = "chosen.json";
inline constexpr const char *TrainShortlistDirectory = "shortlist";

/// Whether train may write into \p Dir: it does not exist yet (not with \p Resume), is
/// empty, or is an earlier run's (a checkpoint of this format, or only the files a run
/// writes, its lock among them: a run stopped before its first checkpoint). Otherwise
/// an InputError naming the file train would overwrite.
llvm::Error checkRunDirectory(const std::string &Dir, bool Resume);

/// An exclusive lock on a training directory (its file "lock"), released when
/// destroyed or when the process exits, however it exits.
class RunLock {
public:
  explicit RunLock(const std::string &Dir);
  ~RunLock();
  RunLock(const RunLock &) = delete;
  RunLock &operator=(const RunLock &) = delete;
  bool held() const { return Held; }

private:
  int Fd;
  bool Held = false;
};

/// Keeps the log's records of steps before \p NextStep: a run killed after logging a
/// step but before its checkpoint redoes that step. The records must be the steps 0,
/// 1, 2... in order, at least up to NextStep - 1, or the log is not the checkpoint's
/// (a log is needed once a step was checkpointed).
llvm::Error truncateLog(const std::string &Path, uint64_t NextStep);

/// Appends \p Line and a newline to the file at \p Path.
llvm::Error appendLine(const std::string &Path, const std::string &Line);

/// Appends \p Record to the log at \p LogPath, as one line.
llvm::Error appendRecord(const std::string &LogPath, const Json &Record);

} // namespace mlgo
