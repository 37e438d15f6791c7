/* The dsp example's driver: a generated signal of 4096 samples times argv[1] (default
   1, rounded down to a power of two), argv[2] times (default 1): FIR low-pass, a
   cascade of four biquads, FFT and the spectrum's energy per band. Prints a checksum
   of the results' bits, so any change of the arithmetic shows. */
#include "../iterations.h"
#include "dsp.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAPS = 31, SECTIONS = 4 };

int main(int argc, char **argv) {
  double scale = argc > 1 ? atof(argv[1]) : 1.0;
  long repeat = argc > 2 ? atol(argv[2]) : 1;
  if (scale * 4096 < 8 || repeat < 1) {
    fprintf(stderr, "usage: %s [scale >= 1/512 [repeat >= 1]]\n", argv[0]);
    return 2;
  }
  size_t n = 8;
  while (n * 2 <= scale * 4096)
    n *= 2;
  double *signal = malloc(n * sizeof(double)), *re = malloc(n * sizeof(double));
  double *im = malloc(n * sizeof(double)), *cos_table = malloc(n / 2 * sizeof(double));
  double *sin_table = malloc(n / 2 * sizeof(double));
  const double pi = 3.14159265358979323846;
  uint32_t x = 2463534242u;
  for (size_t i = 0; i < n; ++i) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    signal[i] = sin(2 * pi * 50 * i / n) + 0.5 * sin(2 * pi * 410 * i / n) +
                (double)(x % 1000) / 2000.0 - 0.25;
  }
  for (size_t i = 0; i < n / 2; ++i)
    cos_table[i] = cos(2 * pi * i / n), sin_table[i] = sin(2 * pi * i / n);
  double h[TAPS];
  for (int k = 0; k < TAPS; ++k) { /* a windowed sinc */
    double t = k - (TAPS - 1) / 2.0;
    h[k] = (t == 0 ? 0.25 : sin(pi * 0.25 * t) / (pi * t)) *
           (0.54 - 0.46 * cos(2 * pi * k / (TAPS - 1)));
  }
  biquad_t sections[SECTIONS];
  uint64_t check = 0;
  double bands[8] = {0};
  example_timer timer = example_timer_start(); /* EXAMPLE_ITERATIONS: see iterations.h */
  while (example_next(&timer)) { /* the biquads keep state: started anew each time */
    for (int s = 0; s < SECTIONS; ++s) {
      biquad_t b = {0.2 + 0.01 * s, 0.3, 0.2 - 0.01 * s, -0.5 + 0.05 * s, 0.2, 0, 0, 0, 0};
      sections[s] = b;
    }
    check = 0;
    memset(bands, 0, sizeof bands);
    for (long r = 0; r < repeat; ++r) {
      fir(signal, re, n, h, TAPS);
      biquad_cascade(sections, SECTIONS, re, n);
      memset(im, 0, n * sizeof(double));
      fft(re, im, n, cos_table, sin_table);
      for (size_t i = 0; i < n / 2; ++i)
        bands[i * 8 / (n / 2)] += re[i] * re[i] + im[i] * im[i];
      for (int b = 0; b < 8; ++b) {
        uint64_t bits;
        memcpy(&bits, &bands[b], sizeof bits);
        check = (check ^ bits) * 1099511628211ULL;
      }
    }
  }
  printf("dsp: %zu samples x %ld, band 0 %.6e, check %016llx\n", n, repeat, bands[0],
         (unsigned long long)check);
  free(signal), free(re), free(im), free(cos_table), free(sin_table);
  return 0;
}
