/* The interpreter example's driver: runs each bytecode program on inputs sized by
   argv[1] (default 1), argv[2] times (default 1), and prints the results. */
#include "../iterations.h"
#include "vm.h"
#include <stdio.h>
#include <stdlib.h>

enum { MEM_WORDS = 1 << 16 };

int main(int argc, char **argv) {
  double scale = argc > 1 ? atof(argv[1]) : 1.0;
  long repeat = argc > 2 ? atol(argv[2]) : 1;
  if (scale <= 0 || scale > 3 || repeat < 1) {
    fprintf(stderr, "usage: %s [scale in (0, 3] [repeat >= 1]]\n", argv[0]);
    return 2;
  }
  static insn_t code[4][64];
  size_t (*const build[4])(insn_t *) = {prog_sieve, prog_collatz, prog_fnv, prog_mix};
  const int64_t size[4] = {20000, 3000, 4000, 20000};
  for (int p = 0; p < 4; ++p)
    build[p](code[p]);
  uint64_t check = 0, steps = 0;
  example_timer timer = example_timer_start(); /* EXAMPLE_ITERATIONS: see iterations.h */
  while (example_next(&timer)) {
    int64_t *mem = calloc(MEM_WORDS, sizeof(int64_t));
    check = 0, steps = 0;
    for (long r = 0; r < repeat; ++r)
      for (int p = 0; p < 4; ++p) {
        int64_t args[4] = {(int64_t)(size[p] * scale), 4, 0, 0};
        check = check * 31 + (uint64_t)vm_run(code[p], mem, MEM_WORDS, args, &steps);
      }
    free(mem);
  }
  printf("interp: %llu steps, check %016llx\n", (unsigned long long)steps,
         (unsigned long long)check);
  return 0;
}
