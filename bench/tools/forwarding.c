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

/* A loop that walks a buffer of random bits and branches on each, its index kept in
   INDEX's way (a register, or a stack slot reloaded and spilled again); sets CYCLES to
   the cycles of one pass. The buffer (4 MiB) is too long for the predictor to learn, so
   the branch is mispredicted about half the time, and each misprediction waits for the
   index before the next bit can be read. */
enum { Bits = 1 << 22 };
static unsigned char bits[Bits];
#define WALK(ghz, index, cycles)                                                       \
  do {                                                                                 \
    double best = 1e30;                                                                \
    for (int run = 0; run < 5; ++run) {                                                \
      long left = LoopPasses / 4, x = 0, y = 0, n = 0;                                 \
      unsigned char *p = bits;                                                         \
      double began = cpu_seconds();                                                    \
      __asm__ volatile("movq $0, -8(%%rsp)\n\t.p2align 6\n1:\n\t" index               \
                       "\n\tmovzbl (%4,%1), %k2\n\ttest $1, %k2\n\tjz 2f\n\t"             \
                       "add $1, %3\n2:\n\tsub $1, %0\n\tjnz 1b"                           \
                       : "+r"(left), "+r"(x), "+r"(y), "+r"(n), "+r"(p)                \
                       :                                                               \
                       : "memory", "cc");                                              \
      double took = cpu_seconds() - began;                                             \
      if (took < best)                                                                 \
        best = took;                                                                   \
    }                                                                                  \
    (cycles) = best * (ghz)*1e9 / (LoopPasses / 4);                                    \
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
  /* The same chain without the reload (calibrate's slot_operation), and with the slot
     stored, added to, reloaded and advanced in a register, as Lua's bytecode pointer in
     a variant: the add's path and the reload's add up. */
  PATTERN(ghz, 1, "add [rsp-8], 1 (a chain in memory)", "addq $1, -8(%%rsp)");
  PATTERN(ghz, 2, "spill y; add [rsp-8], 4; reload x; y = x + 4 (lea)",
          "mov %2, -8(%%rsp)\n\taddq $4, -8(%%rsp)\n\tmov -8(%%rsp), %1\n\tlea 4(%1), %2");
  PATTERN(ghz, 1, "spill y; reload x; y = x + 4 (lea)",
          "mov %2, -8(%%rsp)\n\tmov -8(%%rsp), %1\n\tlea 4(%1), %2");
  /* Renaming pays only while dispatch runs ahead of the data. After lfence (the window
     drained, as after a misprediction) a reload costs a load's latency less a cycle
     more than a register copy does (the flow engine: FlowSimulator.h). */
  double copied, reloaded;
  LOOP_CYCLES(ghz, "xor $5, %1\n\tmov %1, %2\n\tlfence\n\tmov %2, %1", copied);
  LOOP_CYCLES(ghz, "xor $5, %1\n\tmov %1, -8(%%rsp)\n\tlfence\n\tmov -8(%%rsp), %1", reloaded);
  printf("%-58s %5.2f cycles a loop, over a copy %5.2f\n", "xor x; spill x; lfence; reload x",
         reloaded, reloaded - copied);
  /* The same after mispredictions: the index of a walk over random bits. */
  double in_register, in_slot;
  srand(1);
  for (int i = 0; i < Bits; ++i)
    bits[i] = (unsigned char)(rand() & 1);
  WALK(ghz, "add $1, %1\n\tand $4194303, %1", in_register);
  WALK(ghz, "mov -8(%%rsp), %1\n\tadd $1, %1\n\tand $4194303, %1\n\tmov %1, -8(%%rsp)", in_slot);
  printf("%-58s %5.2f cycles a loop, over a register %5.2f\n",
         "random branch; its index reloaded and spilled", in_slot, in_slot - in_register);
  return 0;
}
