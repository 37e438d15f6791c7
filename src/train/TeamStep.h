/// \file
/// One ES step across a team: its directions from the seed, this rank's share of its
/// evaluations, and every rank's evaluations gathered on the leader.
#pragma once

#include "JobSet.h"
#include "StepEvaluations.h"
#include "Team.h"
#include "policy/Policy.h"

#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace mlgo {

/// Names this rank's variants apart from other ranks' in the shared work directory.
std::string variantPrefix(const Team &T);

/// Evaluates this rank's share of \p Step around \p Parameters on \p Jobs, policies
/// like \p Start, and gathers every rank's evaluations on the leader. Fills
/// \p Directions with the step's directions.
llvm::Expected<std::vector<StepEvaluation>>
evaluateStep(Team &T, JobSet &Jobs, const Policy &Start, uint64_t Step,
             const std::vector<float> &Parameters,
             std::vector<std::vector<float>> &Directions);

} // namespace mlgo
