/// \file
/// The policy a run starts from (train --init), which the search perturbs and steps.
#pragma once

#include "policy/Policy.h"

#include "llvm/Support/Error.h"
#include <string>

namespace mlgo {

/// Loads \p Init, a built-in name or a policy file, which must have parameters to train.
llvm::Expected<Policy> loadStartPolicy(const std::string &Init);

} // namespace mlgo
