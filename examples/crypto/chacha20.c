/* ChaCha20: 20 rounds over a 16-word state, all of it live in every round. */
#include "crypto.h"
#include <string.h>

#define ROTL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))
#define QR(a, b, c, d)                                                                 \
  a += b, d ^= a, d = ROTL(d, 16), c += d, b ^= c, b = ROTL(b, 12),                    \
  a += b, d ^= a, d = ROTL(d, 8), c += d, b ^= c, b = ROTL(b, 7)

static void block(const uint32_t in[16], uint8_t out[64]) {
  uint32_t x0 = in[0], x1 = in[1], x2 = in[2], x3 = in[3], x4 = in[4], x5 = in[5],
           x6 = in[6], x7 = in[7], x8 = in[8], x9 = in[9], x10 = in[10], x11 = in[11],
           x12 = in[12], x13 = in[13], x14 = in[14], x15 = in[15];
  for (int i = 0; i < 10; ++i) {
    QR(x0, x4, x8, x12);
    QR(x1, x5, x9, x13);
    QR(x2, x6, x10, x14);
    QR(x3, x7, x11, x15);
    QR(x0, x5, x10, x15);
    QR(x1, x6, x11, x12);
    QR(x2, x7, x8, x13);
    QR(x3, x4, x9, x14);
  }
  uint32_t x[16] = {x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15};
  for (int i = 0; i < 16; ++i) {
    uint32_t v = x[i] + in[i];
    out[4 * i] = (uint8_t)v;
    out[4 * i + 1] = (uint8_t)(v >> 8);
    out[4 * i + 2] = (uint8_t)(v >> 16);
    out[4 * i + 3] = (uint8_t)(v >> 24);
  }
}

void chacha20_xor(uint8_t *data, size_t len, const uint32_t key[8], const uint32_t nonce[3],
                  uint32_t counter) {
  uint32_t state[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
  memcpy(state + 4, key, 32);
  state[13] = nonce[0];
  state[14] = nonce[1];
  state[15] = nonce[2];
  uint8_t stream[64];
  for (size_t off = 0; off < len; off += 64, ++counter) {
    state[12] = counter;
    block(state, stream);
    size_t n = len - off < 64 ? len - off : 64;
    for (size_t i = 0; i < n; ++i)
      data[off + i] ^= stream[i];
  }
}
