/// \file
/// Parallel work items with ordered errors.
#include "ParallelWork.h"

#include "llvm/Support/ThreadPool.h"
#include <vector>

namespace mlgo {

llvm::Error runInParallel(size_t N, unsigned Jobs,
                          llvm::function_ref<llvm::Error(size_t)> Work) {
  std::vector<llvm::Error> Errors;
  Errors.reserve(N);
  for (size_t I = 0; I < N; ++I)
    Errors.push_back(llvm::Error::success());
  {
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Jobs));
    for (size_t I = 0; I < N; ++I)
      Pool.async([&, I] { Errors[I] = Work(I); });
    Pool.wait();
  }
  // The first failure in item order, alone: the CLI prints one line per error, and
  // one cause (a bad compiler, an interrupt) often fails every item.
  llvm::Error First = llvm::Error::success();
  for (llvm::Error &E : Errors) {
    if (!First)
      First = std::move(E);
    else
      llvm::consumeError(std::move(E));
  }
  return First;
}

} // namespace mlgo
