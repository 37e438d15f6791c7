/* Blocked single-precision matrix multiply: many live values per inner loop. */
#include "workload.h"
#include <stdlib.h>

enum { BLOCK = 16 };

static void multiply(const float *a, const float *b, float *c, size_t n) {
  for (size_t ii = 0; ii < n; ii += BLOCK)
    for (size_t kk = 0; kk < n; kk += BLOCK)
      for (size_t jj = 0; jj < n; jj += BLOCK)
        for (size_t i = ii; i < ii + BLOCK && i < n; ++i)
          for (size_t k = kk; k < kk + BLOCK && k < n; ++k) {
            float aik = a[i * n + k];
            for (size_t j = jj; j < jj + BLOCK && j < n; ++j)
              c[i * n + j] += aik * b[k * n + j];
          }
}

uint64_t wl_matrix_kernel(size_t n, uint64_t seed) {
  float *a = malloc(n * n * sizeof(float));
  float *b = malloc(n * n * sizeof(float));
  float *c = calloc(n * n, sizeof(float));
  uint64_t state = seed | 1;
  for (size_t i = 0; i < n * n; ++i) {
    a[i] = (float)(wl_next_random(&state) % 1000) / 100.0f;
    b[i] = (float)(wl_next_random(&state) % 1000) / 100.0f;
  }
  multiply(a, b, c, n);
  uint64_t check = 0;
  for (size_t i = 0; i < n * n; ++i)
    check = check * 1099511628211ULL + (uint64_t)(c[i] * 16.0f);
  free(a);
  free(b);
  free(c);
  return check;
}
