/// \file
/// A replay context: what every replay of one trace shares, read once and kept for as
/// long as replays are asked of it (the model: LLVM MCA's mca::Context). `replay` makes
/// one per command, `train` one per run for all its evaluations, so that an evaluation
/// pays only for its own code: not for decoding the trace, loading the traced binary,
/// hashing the trace or reading the reference's exact costs again.
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <memory>

namespace mlgo {

struct ReplayOptions;
struct ReplayResult;
struct ReplayComparison;

class ReplayContext {
public:
  /// Reads the trace at Opts.Trace, checked to hold what Opts asks to replay, and
  /// decides the automatic shard (ReplayOptions::AutoShard) from its length.
  static llvm::Expected<std::unique_ptr<ReplayContext>> create(const ReplayOptions &Opts);
  ~ReplayContext();

  /// The options replays run with: those given, with the automatic shard decided.
  /// AutoShard is then true only where fast replay tries the shard on each variant;
  /// with KeepAutoShard, Spans samples the shard if the trace is long enough.
  const ReplayOptions &options() const;

  /// Replays the trace on \p Code (a linked binary or a directory of objects). Functions
  /// that do not match the trace fail the replay, or with UseBaseline run the code of
  /// the binary the trace was recorded on (which must then be readable and unchanged).
  /// Fast replay compares the code with that binary's, whose exact replay is computed
  /// (or found in Opts.CacheDir) on the first call and kept; if the binary cannot be
  /// read, the replay is exact. Thread-safe.
  llvm::Expected<ReplayResult> predict(llvm::StringRef Code);

  /// Replays the trace on \p Baseline and on \p Candidate: the baseline exactly (or from
  /// Opts.CacheDir) and the candidate against it; with Exact, both exactly, in parallel.
  /// A linked baseline must be the binary the trace was recorded on; with UseBaseline,
  /// candidate functions that do not match the trace run the baseline's code.
  llvm::Expected<ReplayComparison> compare(llvm::StringRef Baseline,
                                           llvm::StringRef Candidate);

private:
  struct State;
  ReplayContext();
  std::unique_ptr<State> S;
};

} // namespace mlgo
