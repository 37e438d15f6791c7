/* A program whose main has a block ending in a call (strtol, from atoi) that falls
   through to the next block: with all registers, the allocator copies the call's result
   into a callee-saved register right after the call, in that block; with
   -stress-regalloc the copy goes elsewhere and the block ends at the call, one segment
   fewer. The test of replay across such a moved copy. With -DEXTRA_BRANCH the block
   gets a branch after the copy instead: one segment more, which is a changed CFG.
   Argument: the array size. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long mix(long X) { return X * 2654435761u ^ (X >> 7); }

__attribute__((noinline)) long work(const long *A, int N) {
  long S = 0, T = 1, U = 3, V = 5;
  for (int I = 0; I < N; I++) {
    long X = A[I];
    if (X & 1)
      S += mix(X + T);
    T = T * 31 + (S ^ U);
    U += X * V;
    V ^= T + S;
  }
  return S + T + U + V;
}

int main(int argc, char **argv) {
  int N = 1000;
  if (argc > 1) {
    N = atoi(argv[1]);
#ifdef EXTRA_BRANCH
    __asm__ volatile("jmp 1f\n1: nop");
#endif
  }
  long *A = malloc(N * sizeof *A);
  for (int I = 0; I < N; I++)
    A[I] = I * 7919 % 1013;
  printf("%ld\n", work(A, N));
  free(A);
  return 0;
}
