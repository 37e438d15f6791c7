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
  llvm::Error All = llvm::Error::success();
  for (llvm::Error &E : Errors)
    All = llvm::joinErrors(std::move(All), std::move(E));
  return All;
}

} // namespace mlgo
