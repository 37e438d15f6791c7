/// \file
/// How a training run replays: every evaluation of a policy (its reward) on the same
/// footing, and validation from the same settings on whole traces.
#pragma once

#include "TrainOptions.h"
#include "replay/Replay.h"

namespace mlgo {

/// The options every replay of a training run shares (the rewards'), for its trace.
ReplayOptions trainReplayOptions(const TrainOptions &Opts);

} // namespace mlgo
