/// \file
/// What every evaluation replays with: fast replay against the traced binary.
#include "RewardReplay.h"

namespace mlgo {

ReplayOptions trainReplayOptions(const TrainOptions &Opts) {
  const EvaluationOptions &Evaluation = Opts.Evaluation;
  ReplayOptions Replaying;
  Replaying.Trace = Opts.Inputs.Trace;
  Replaying.CPU = Evaluation.CPU;
  Replaying.Engine = Evaluation.Engine;
  Replaying.LoadDependences = Evaluation.LoadDependences;
  Replaying.Core = Evaluation.Core;
  Replaying.Spans = Evaluation.Spans;
  // Every reward on the same footing: train's shard (--sample), AutoShard's on a long
  // trace whatever its error, or the whole trace.
  Replaying.AutoShard = Evaluation.AutoShard;
  Replaying.KeepAutoShard = true;
  // Traced functions without bitcode (libraries, assembly) run the baseline's code, the
  // same in every variant.
  Replaying.OnCfgMismatch = CfgMismatchPolicy::UseBaseline;
  Replaying.RecordedBinary = Opts.Inputs.Baseline;
  Replaying.ShowProgress = false;
  // The traced binary's exact replay is computed once per trace and kept in the user's
  // cache; evaluations already run one per core.
  Replaying.CacheDir = Evaluation.CacheDir;
  Replaying.Jobs = 1;
  // The flow engine is fast enough for the whole trace, without fast replay's error.
  if (Evaluation.Engine == EngineKind::Flow && !Evaluation.Spans.samples()) {
    Replaying.Exact = true;
    Replaying.AutoShard = false;
  }
  return Replaying;
}

} // namespace mlgo
