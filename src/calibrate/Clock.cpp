#include "Clock.h"

namespace mlgo {

LoopBody multiplyChain() {
#if defined(__x86_64__)
  return [](uint64_t Left) {
    long X = 3;
    __asm__ volatile(".p2align 6\n"
                     "1:\n\t"
                     "imul %0, %0\n\t"
                     "imul %0, %0\n\t"
                     "sub $1, %1\n\t"
                     "jnz 1b"
                     : "+r"(X), "+r"(Left)
                     :
                     : "cc");
  };
#else
  return nullptr;
#endif
}

std::optional<double> timeClockGHz(uint64_t Iterations) {
  LoopBody Chain = multiplyChain();
  if (!Chain)
    return std::nullopt;
  double Began = threadSeconds();
  Chain(Iterations);
  double Took = threadSeconds() - Began;
  if (!(Took > 0))
    return std::nullopt;
  return chainClockGHz(Iterations, Took);
}

} // namespace mlgo
