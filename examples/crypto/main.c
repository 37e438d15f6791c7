/* The crypto example's driver: a generated buffer of 32 KiB times argv[1] (default 1),
   argv[2] times (default 1): encrypted with ChaCha20 (a new nonce each time), hashed
   with SHA-256 and checksummed with CRC-32; prints the final digest and checksum. */
#include "../iterations.h"
#include "crypto.h"
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  double scale = argc > 1 ? atof(argv[1]) : 1.0;
  long repeat = argc > 2 ? atol(argv[2]) : 1;
  size_t len = (size_t)(32768 * scale);
  if (len < 1 || repeat < 1) {
    fprintf(stderr, "usage: %s [scale > 0 [repeat >= 1]]\n", argv[0]);
    return 2;
  }
  uint8_t *data = malloc(len);
  const uint32_t key[8] = {0x03020100, 0x07060504, 0x0b0a0908, 0x0f0e0d0c,
                           0x13121110, 0x17161514, 0x1b1a1918, 0x1f1e1d1c};
  uint8_t digest[32] = {0};
  uint32_t crc = 0;
  example_timer timer = example_timer_start(); /* EXAMPLE_ITERATIONS: see iterations.h */
  while (example_next(&timer)) { /* the data is encrypted in place: made anew each time */
    uint32_t x = 2463534242u;
    for (size_t i = 0; i < len; ++i) {
      x ^= x << 13, x ^= x >> 17, x ^= x << 5;
      data[i] = (uint8_t)x;
    }
    crc = 0;
    for (long r = 0; r < repeat; ++r) {
      const uint32_t nonce[3] = {0x09000000, 0x4a000000, (uint32_t)r};
      chacha20_xor(data, len, key, nonce, 1);
      sha256(data, len, digest);
      crc = crc32(crc, digest, 32) ^ crc32(0, data, len);
    }
  }
  free(data);
  printf("crypto: %zu bytes x %ld, sha256 ", len, repeat);
  for (int i = 0; i < 32; ++i)
    printf("%02x", digest[i]);
  printf(", crc %08x\n", crc);
  return 0;
}
