/* An iterative radix-2 decimation-in-time FFT: bit-reversal, then butterflies that
   handle two of them per step. */
#include "dsp.h"

void fft(double *re, double *im, size_t n, const double *cos_table, const double *sin_table) {
  for (size_t i = 1, j = 0; i < n; ++i) {
    size_t bit = n >> 1;
    for (; j & bit; bit >>= 1)
      j ^= bit;
    j |= bit;
    if (i < j) {
      double t = re[i];
      re[i] = re[j], re[j] = t;
      t = im[i];
      im[i] = im[j], im[j] = t;
    }
  }
  for (size_t len = 2; len <= n; len <<= 1) {
    size_t half = len >> 1, stride = n / len;
    for (size_t start = 0; start < n; start += len)
      for (size_t k = 0; k < half; k += 2) {
        double c0 = cos_table[k * stride], s0 = -sin_table[k * stride];
        size_t a0 = start + k, b0 = a0 + half;
        double tr0 = re[b0] * c0 - im[b0] * s0, ti0 = re[b0] * s0 + im[b0] * c0;
        double ur0 = re[a0], ui0 = im[a0];
        if (k + 1 < half) {
          double c1 = cos_table[(k + 1) * stride], s1 = -sin_table[(k + 1) * stride];
          size_t a1 = a0 + 1, b1 = b0 + 1;
          double tr1 = re[b1] * c1 - im[b1] * s1, ti1 = re[b1] * s1 + im[b1] * c1;
          double ur1 = re[a1], ui1 = im[a1];
          re[a1] = ur1 + tr1, im[a1] = ui1 + ti1;
          re[b1] = ur1 - tr1, im[b1] = ui1 - ti1;
        }
        re[a0] = ur0 + tr0, im[a0] = ui0 + ti0;
        re[b0] = ur0 - tr0, im[b0] = ui0 - ti0;
      }
  }
}
