/* Filters: a direct FIR convolution unrolled by four outputs, and biquads that keep
   every section's coefficients and state in registers across the samples. */
#include "dsp.h"

void fir(const double *in, double *out, size_t n, const double *h, size_t taps) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (size_t k = 0; k < taps; ++k) {
      double c = h[k];
      if (i + 3 >= k) {
        s3 += c * in[i + 3 - k];
        if (i + 2 >= k) s2 += c * in[i + 2 - k];
        if (i + 1 >= k) s1 += c * in[i + 1 - k];
        if (i >= k) s0 += c * in[i - k];
      }
    }
    out[i] = s0, out[i + 1] = s1, out[i + 2] = s2, out[i + 3] = s3;
  }
  for (; i < n; ++i) {
    double s = 0;
    for (size_t k = 0; k < taps && k <= i; ++k)
      s += h[k] * in[i - k];
    out[i] = s;
  }
}

void biquad_cascade(biquad_t *sections, size_t count, double *data, size_t n) {
  for (size_t s = 0; s + 2 <= count; s += 2) {
    biquad_t *p = &sections[s], *q = &sections[s + 1];
    double pb0 = p->b0, pb1 = p->b1, pb2 = p->b2, pa1 = p->a1, pa2 = p->a2;
    double qb0 = q->b0, qb1 = q->b1, qb2 = q->b2, qa1 = q->a1, qa2 = q->a2;
    double px1 = p->x1, px2 = p->x2, py1 = p->y1, py2 = p->y2;
    double qx1 = q->x1, qx2 = q->x2, qy1 = q->y1, qy2 = q->y2;
    for (size_t i = 0; i < n; ++i) {
      double x = data[i];
      double y = pb0 * x + pb1 * px1 + pb2 * px2 - pa1 * py1 - pa2 * py2;
      px2 = px1, px1 = x, py2 = py1, py1 = y;
      double z = qb0 * y + qb1 * qx1 + qb2 * qx2 - qa1 * qy1 - qa2 * qy2;
      qx2 = qx1, qx1 = y, qy2 = qy1, qy1 = z;
      data[i] = z;
    }
    p->x1 = px1, p->x2 = px2, p->y1 = py1, p->y2 = py2;
    q->x1 = qx1, q->x2 = qx2, q->y1 = qy1, q->y2 = qy2;
  }
}
