/* bench/tools/forwarding.c: what a spill and its reload cost on this core, on the
   critical path. Each pattern is a loop whose one dependence chain runs through an ALU
   operation or two (1 cycle each), a store to a stack slot and a load from it; the
   cycles per iteration (CPU seconds x the clock given as argv[1] in GHz, bench/tools/
   clock-rate.c) less the chain's ALU cycles are the store-to-load path. A core that
   forwards from its store buffer takes 4-5 cycles there; one that renames memory (the
   reload's register aliased to the stored one's) close to 0. Built and run by bench/ipc:
   the flow engine's forwarding rule (FlowSimulator.h) should agree with it. */
#include "loop-cycles.h"

/* Prints the cycles a pass of BODY (x: %1, y: %2, p: %7) and those left for the
   store-to-load path after the chain's ALU cycles. */
#define PATTERN(ghz, alu, text, body)                                                  \
  do {                                                                                 \
    double cycles;                                                                     \
    LOOP_CYCLES(ghz, body, cycles);                                                    \
    printf("%-58s %5.2f cycles a loop, store to load %5.2f\n", text, cycles,         \
           cycles - (alu));                                                            \
  } while (0)

int main(int argc, char **argv) {
  double ghz = clock_argument(argc, argv);
  PATTERN(ghz, 1, "xor x; spill x to [rsp-8]; reload x",
          "xor $5, %1\n\tmov %1, -8(%%rsp)\n\tmov -8(%%rsp), %1");
  PATTERN(ghz, 2, "xor x; spill x; reload y; x = y + 1 (lea)",
          "xor $5, %1\n\tmov %1, -8(%%rsp)\n\tmov -8(%%rsp), %2\n\tlea 1(%2), %1");
  PATTERN(ghz, 2, "xor x; spill x; reload y; x ^= y",
          "xor $5, %1\n\tmov %1, -8(%%rsp)\n\tmov -8(%%rsp), %2\n\txor %2, %1");
  PATTERN(ghz, 1, "xor x; spill x; two other stores; reload x",
          "xor $5, %1\n\tmov %1, -8(%%rsp)\n\tmov %0, -16(%%rsp)\n\tmov %0, -24(%%rsp)\n\t"
          "mov -8(%%rsp), %1");
  PATTERN(ghz, 1, "xor x; spill x; x = other; reload x",
          "xor $5, %1\n\tmov %1, -8(%%rsp)\n\tmov %0, %1\n\tmov -8(%%rsp), %1");
  PATTERN(ghz, 2, "xor x; spill x; x ^= [rsp-8] (folded reload)",
          "xor $5, %1\n\tmov %1, -8(%%rsp)\n\txor -8(%%rsp), %1");
  PATTERN(ghz, 1, "xor x; store x to [p+8]; load x",
          "xor $5, %1\n\tmov %1, 8(%7)\n\tmov 8(%7), %1");
  /* A pointer kept in a stack slot and advanced there, as sqlite3VdbeExec's opcode
     pointer in a variant (docs/results/arena.md): the chain is the slot itself. */
  PATTERN(ghz, 1, "add [rsp-8], 24 (in memory); reload x",
          "addq $24, -8(%%rsp)\n\tmov -8(%%rsp), %1");
  return 0;
}
