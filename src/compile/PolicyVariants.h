/// \file
/// Policies where code is expected: `replay --corpus C --baseline default --candidate
/// p.json` compiles each named policy into a variant of the corpus first, so comparing
/// two policies (a CI check of a policy change) is one command.
#pragma once

#include "Variant.h"

#include "llvm/Support/Error.h"
#include <string>

namespace mlgo {

/// Whether \p Argument names a policy rather than code: an existing file that is not
/// an ELF object (a policy file), or a built-in policy name that is not a path.
bool namesPolicy(llvm::StringRef Argument);

/// Compiles the policy \p NameOrPath with \p Plan into a new directory under
/// \p WorkDir and returns that directory.
llvm::Expected<std::string> compilePolicyVariant(llvm::StringRef NameOrPath,
                                                 const VariantPlan &Plan,
                                                 llvm::StringRef WorkDir,
                                                 const VariantOptions &Opts);

} // namespace mlgo
