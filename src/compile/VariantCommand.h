/// \file
/// The cc1 arguments of a variant compile: a module's own (sanitized) command with the
/// flags every variant needs, so that block IDs match the trace whatever the policy.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include <string>
#include <vector>

namespace mlgo {

/// The BB address map and the six CFG-stabilizing flags (DESIGN.md, "Facts about LLVM
/// 22"), as cc1 arguments: "-fbasic-block-address-map", "-mllvm", "-disable-branch-fold", ...
const std::vector<std::string> &requiredVariantFlags();

/// \p Args (cc1 arguments after "-cc1") without bitcode embedding (a variant is not a
/// corpus) and with every required flag the module's command lacks appended. The
/// caller adds the action (the sanitizer dropped the recorded one).
std::vector<std::string> variantArguments(llvm::ArrayRef<std::string> Args);

} // namespace mlgo
