/* The dsp example's kernels, on arrays of doubles. */
#ifndef MLGO_DSP_H
#define MLGO_DSP_H

#include <stddef.h>

/* out[i] = sum over k < taps of h[k] * in[i - k] (in[j] = 0 for j < 0). */
void fir(const double *in, double *out, size_t n, const double *h, size_t taps);

/* A biquad section (direct form I): b0 b1 b2 a1 a2 and its four state values. */
typedef struct {
  double b0, b1, b2, a1, a2;
  double x1, x2, y1, y2;
} biquad_t;

/* Runs data through the sections in order, in place. */
void biquad_cascade(biquad_t *sections, size_t count, double *data, size_t n);

/* In-place iterative radix-2 FFT of n complex values (n a power of two); cos and sin
   tables of n/2 entries. */
void fft(double *re, double *im, size_t n, const double *cos_table, const double *sin_table);

#endif
