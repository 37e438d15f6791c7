/// \file
/// The C++ source of llvm::RegAllocEvictModel for a network policy: the class LLVM's
/// release-mode eviction advisor instantiates through ReleaseModeModelRunner.
#pragma once

#include "OutputDirectory.h"
#include "policy/Policy.h"

#include "llvm/Support/Error.h"
#include <vector>

namespace mlgo {

/// RegAllocEvictModel.h and RegAllocEvictModel.cpp for \p P, whose Run() computes
/// exactly what P.decide() computes. \p P must use the advisor; a parameter that is not
/// finite is an InputError about \p Input.
llvm::Expected<std::vector<GeneratedFile>> renderModelClass(const Policy &P,
                                                            llvm::StringRef Input);

} // namespace mlgo
