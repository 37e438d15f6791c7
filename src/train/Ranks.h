/// \file
/// What each process of a run does (Team.h): the leader (rank 0, or the only process)
/// owns the optimizer, the log and the checkpoint; every other rank evaluates its share
/// of each step the leader announces.
#pragma once

#include "JobSet.h"
#include "Team.h"
#include "TrainResult.h"

#include "llvm/Support/Error.h"

namespace mlgo {

/// Rank 0 (or the only process): trains, or continues the run in the output directory,
/// then validates its best policy and, if asked, measures it natively.
llvm::Expected<TrainResult> lead(Team &T, JobSet &Jobs);

/// A rank other than the leader: evaluates its share of each step it is sent, until the
/// leader releases it.
llvm::Expected<TrainResult> follow(Team &T, JobSet &Jobs);

} // namespace mlgo
