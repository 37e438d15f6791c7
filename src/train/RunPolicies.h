/// \file
/// The policies a run writes from its checkpoint: DIR/policy.json (the search's
/// current policy), DIR/best.json and, with train --shortlist, the shortlist. The
/// checkpoint holds them whole, so a resumed run writes them again.
#pragma once

#include "Checkpoint.h"
#include "Shortlist.h"
#include "policy/Policy.h"

#include "llvm/Support/Error.h"
#include <string>

namespace mlgo {

/// Writes DIR/policy.json and DIR/best.json of \p State, policies like \p Start, into
/// \p Out.
llvm::Error saveStepPolicies(const Policy &Start, const Checkpoint &State,
                             const std::string &Out);

/// Writes the shortlist's policies and its index (TrainShortlistFile) into \p Out.
llvm::Error saveShortlist(const Policy &Start, const Shortlist &List, const std::string &Out);

/// Writes everything \p State decides into \p Out: the policies after its last step (if
/// it has one) and, with a shortlist of \p ShortlistSize, the shortlist.
llvm::Error saveCheckpointedPolicies(const Policy &Start, const Checkpoint &State,
                                     const std::string &Out, unsigned ShortlistSize);

} // namespace mlgo
