/* bench/tools/loop-cycles.h: timing x86-64 asm loops on this core without a cycle
   counter, for bench/tools/clock-rate.c (which measures the clock), alu-ops.c and
   forwarding.c (which turn CPU seconds into cycles with it). */
#ifndef BENCH_TOOLS_LOOP_CYCLES_H
#define BENCH_TOOLS_LOOP_CYCLES_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double cpu_seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/* The clock in GHz given as argv[1] (bench/tools/clock-rate.c's output); exits (2) with
   the usage when there is none. */
static inline double clock_argument(int argc, char **argv) {
  double ghz = argc > 1 ? atof(argv[1]) : 0;
  if (ghz <= 0) {
    fprintf(stderr, "usage: %s CLOCK_GHZ\n", argv[0]);
    exit(2);
  }
  return ghz;
}

enum { LoopPasses = 50000000 };

/* Sets CYCLES to the cycles of one pass of BODY, a loop body in asm over %1 to %6 (six
   registers holding small numbers) and %7 (a pointer to 8 writable longs), at GHZ: the
   least CPU time of 5 runs of LoopPasses passes. The loop starts a 64-byte line: one
   that crosses a line can run slower (a spill and reload through [p+8] took 3 cycles
   more when its loop crossed one). */
#define LOOP_CYCLES(ghz, body, cycles)                                                  \
  do {                                                                                  \
    double best = 1e30;                                                                 \
    for (int run = 0; run < 5; ++run) {                                                 \
      long left = LoopPasses, a = 1, b = 2, c = 3, d = 4, e = 5, f = 6;                  \
      long buffer[8] = {0}, *p = buffer;                                                \
      double began = cpu_seconds();                                                     \
      __asm__ volatile(".p2align 6\n1:\n\t" body "\n\tsub $1, %0\n\tjnz 1b"              \
                       : "+r"(left), "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e),       \
                         "+r"(f), "+r"(p)                                               \
                       :                                                                \
                       : "memory");                                                     \
      double took = cpu_seconds() - began;                                              \
      if (took < best)                                                                  \
        best = took;                                                                    \
    }                                                                                   \
    (cycles) = best * (ghz)*1e9 / LoopPasses;                                           \
  } while (0)

#endif
