/* xorshift64*: fast, deterministic, good enough for generating test data. */
#include "workload.h"

uint64_t wl_next_random(uint64_t *state) {
  uint64_t x = *state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return x * 0x2545F4914F6CDD1DULL;
}
