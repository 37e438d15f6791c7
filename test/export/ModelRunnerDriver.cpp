// Runs an exported llvm::RegAllocEvictModel through LLVM's own ReleaseModeModelRunner,
// set up as MLRegAllocEvictAdvisor sets it up in a release build: the 21 feature specs,
// "index_to_evict", feed_/fetch_ prefixes and no model selector. Reads observations
// (raw protocol bytes, 3436 each, little-endian like the host) from argv[1] and prints
// each index_to_evict on its own line. Compiled by ModelRunnerTest.cpp, not by CMake.
#include "RegAllocEvictModel.h"

#include "llvm/Analysis/ReleaseModeModelRunner.h"
#include "llvm/Analysis/TensorSpec.h"
#include "llvm/IR/LLVMContext.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

// FeatureSpecs.inc is written by the test from mlgo-ra's FeatureSet: M(type, name, shape).
static const std::vector<llvm::TensorSpec> Features = {
#define M(TYPE, NAME, ...) llvm::TensorSpec::createSpec<TYPE>(NAME, {__VA_ARGS__}),
#include "FeatureSpecs.inc"
#undef M
};

int main(int Argc, char **Argv) {
  if (Argc != 2) {
    std::fprintf(stderr, "usage: %s OBSERVATIONS\n", Argv[0]);
    return 2;
  }
  llvm::LLVMContext Ctx;
  llvm::ReleaseModeModelRunner<llvm::RegAllocEvictModel> Runner(Ctx, Features,
                                                                 "index_to_evict");
  size_t Size = 0;
  for (const llvm::TensorSpec &S : Features)
    Size += S.getTotalTensorBufferSize();
  std::ifstream In(Argv[1], std::ios::binary);
  std::vector<char> Bytes(Size);
  while (In.read(Bytes.data(), Size)) {
    const char *P = Bytes.data();
    for (size_t I = 0; I < Features.size(); ++I) {
      size_t N = Features[I].getTotalTensorBufferSize();
      std::memcpy(Runner.getTensorUntyped(I), P, N);
      P += N;
    }
    std::printf("%lld\n", static_cast<long long>(Runner.evaluate<int64_t>()));
  }
  return In.eof() && In.gcount() == 0 ? 0 : 1;
}
