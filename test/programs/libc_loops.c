/* A program that spends most of its instructions in libc (qsort, memcpy, strlen), with
   a comparison function of its own that qsort calls back: the test program for traces
   that keep unmapped code. Argument: the array size (default 300). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare(const void *A, const void *B) {
  int X = *(const int *)A, Y = *(const int *)B;
  return (X > Y) - (X < Y);
}

int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 300;
  int *Values = malloc(N * sizeof *Values);
  char *Text = malloc(N + 1), *Copy = malloc(N + 1);
  unsigned Seed = 1;
  size_t Total = 0;
  for (int Round = 0; Round < 10; ++Round) {
    for (int I = 0; I < N; ++I) {
      Seed = Seed * 1103515245u + 12345u;
      Values[I] = (int)(Seed >> 8);
      Text[I] = (char)('a' + Seed % 26);
    }
    Text[N] = 0;
    qsort(Values, N, sizeof *Values, compare);
    memcpy(Copy, Text, N + 1);
    Total += strlen(Copy) + (size_t)Values[N / 2];
  }
  printf("%zu\n", Total);
  return 0;
}
