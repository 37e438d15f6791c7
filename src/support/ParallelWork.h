/// \file
/// Independent work items (modules, compiles) run on a few threads, with their errors
/// the first in item order reported, whatever order the threads finished in.
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

namespace mlgo {

/// Runs \p Work(0) ... \p Work(N - 1) on up to \p Jobs threads (0: one per core) and
/// returns the error of the first item (in item order) that failed.
llvm::Error runInParallel(size_t N, unsigned Jobs,
                          llvm::function_ref<llvm::Error(size_t)> Work);

} // namespace mlgo
