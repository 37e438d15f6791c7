/* bench/tools/clock-rate.c: this core's clock in cycles per CPU second, without a cycle
   counter (a virtual machine often has none): a chain of dependent 64-bit multiplies,
   3 cycles each on every x86-64 core of the last decade (Intel since Sandy Bridge, AMD
   since Zen), timed by the process's CPU clock; the best of 7 runs of 0.1 s or so.
   Prints the rate in GHz. Built and run by bench/ipc. */
#include "loop-cycles.h"

int main(void) {
  const long iterations = 100000000; /* 2 multiplies each: 6 cycles */
  double best = 1e30;
  for (int run = 0; run < 7; ++run) {
    long left = iterations, x = 3;
    double began = cpu_seconds();
    __asm__ volatile("1:\n\t"
                     "imul %0, %0\n\t"
                     "imul %0, %0\n\t"
                     "sub $1, %1\n\t"
                     "jnz 1b"
                     : "+r"(x), "+r"(left));
    double took = cpu_seconds() - began;
    if (took < best)
      best = took;
  }
  printf("%.4f\n", (double)iterations * 6 / best * 1e-9);
  return 0;
}
