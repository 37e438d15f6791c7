/* bench/tools/alu-ops.c: the latency and throughput of a few ALU instructions that
   dominate the bundled programs' hot loops, measured on this core (CPU seconds x the
   clock given as argv[1] in GHz, bench/tools/clock-rate.c), for bench/ipc to set
   beside what LLVM's scheduling model says of them (llvm-mca -instruction-info): the
   flow engine takes its latencies and ports from that model. */
#include "loop-cycles.h"

/* Prints the cycles an instruction of BODY, OPS instructions a pass. */
#define MEASURE(ghz, ops, text, body)                                                   \
  do {                                                                                  \
    double cycles;                                                                      \
    LOOP_CYCLES(ghz, body, cycles);                                                     \
    printf("%-44s %5.2f cycles an instruction\n", text, cycles / (ops));                \
  } while (0)

int main(int argc, char **argv) {
  double ghz = clock_argument(argc, argv);
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
