/* bench/tools/alu-ops.c: the latency and throughput of a few ALU instructions that
   dominate the bundled programs' hot loops, measured on this core (CPU seconds x the
   clock given as argv[1] in GHz, bench/tools/clock-rate.c), for bench/ipc to set
   beside what LLVM's scheduling model says of them (llvm-mca -instruction-info): the
   flow engine takes its latencies and ports from that model. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu_seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

enum { Iterations = 50000000 };

/* Cycles per instruction of BODY (OPS instructions) in a loop, the least of 5 runs. */
#define MEASURE(ghz, ops, text, body)                                                   \
  do {                                                                                  \
    double best = 1e30;                                                                 \
    for (int run = 0; run < 5; ++run) {                                                 \
      long left = Iterations, a = 1, b = 2, c = 3, d = 4, e = 5, f = 6;                 \
      double began = cpu_seconds();                                                     \
      __asm__ volatile("1:\n\t" body "\n\tsub $1, %0\n\tjnz 1b"                         \
                       : "+r"(left), "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e),       \
                         "+r"(f));                                                      \
      double took = cpu_seconds() - began;                                              \
      if (took < best)                                                                  \
        best = took;                                                                    \
    }                                                                                   \
    printf("%-44s %5.2f cycles an instruction\n", text,                                \
           best * (ghz)*1e9 / Iterations / (ops));                                      \
  } while (0)

int main(int argc, char **argv) {
  double ghz = argc > 1 ? atof(argv[1]) : 0;
  if (ghz <= 0) {
    fprintf(stderr, "usage: %s CLOCK_GHZ\n", argv[0]);
    return 2;
  }
  MEASURE(ghz, 4, "xor r32, r32: latency (a chain)",
          "xor %k2, %k1\n\txor %k1, %k2\n\txor %k2, %k1\n\txor %k1, %k2");
  MEASURE(ghz, 4, "add r32, r32: latency (a chain)",
          "add %k2, %k1\n\tadd %k1, %k2\n\tadd %k2, %k1\n\tadd %k1, %k2");
  MEASURE(ghz, 4, "rol r32, imm: latency (a chain)",
          "rol $7, %k1\n\trol $9, %k1\n\trol $7, %k1\n\trol $9, %k1");
  MEASURE(ghz, 6, "rol r32, imm: throughput (6 independent)",
          "rol $7, %k1\n\trol $7, %k2\n\trol $7, %k3\n\trol $7, %k4\n\trol $7, %k5\n\t"
          "rol $7, %k6");
  MEASURE(ghz, 4, "imul r64, r64: latency (a chain)",
          "imul %1, %1\n\timul %1, %1\n\timul %1, %1\n\timul %1, %1");
  return 0;
}
