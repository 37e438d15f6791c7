/// \file
/// What one replay computed, as the replayer returns it and the replay cache keeps it.
#pragma once

#include "replay/engine/CostModel.h"

namespace mlgo {

/// What a replay computed: the refill's counts and the predicted costs.
struct Replayed {
  RefillCounts Counts;
  PredictedCosts Costs;
};

} // namespace mlgo
