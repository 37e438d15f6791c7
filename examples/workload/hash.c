/* Open-addressing hash table with linear probing and a 64-bit mixing hash. */
#include "workload.h"
#include <stdlib.h>

typedef struct {
  uint64_t key;
  uint64_t value;
  uint32_t hits;
  uint32_t used;
} slot_t;

static uint64_t mix(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

static void insert(slot_t *table, size_t mask, uint64_t key, uint64_t value) {
  size_t i = mix(key) & mask;
  while (table[i].used && table[i].key != key)
    i = (i + 1) & mask;
  table[i].key = key;
  table[i].value += value;
  table[i].used = 1;
}

static uint64_t lookup(slot_t *table, size_t mask, uint64_t key) {
  size_t i = mix(key) & mask;
  while (table[i].used) {
    if (table[i].key == key) {
      table[i].hits++;
      return table[i].value;
    }
    i = (i + 1) & mask;
  }
  return 0;
}

uint64_t wl_hash_kernel(size_t num_keys, uint64_t seed) {
  size_t capacity = 1;
  while (capacity < num_keys * 2)
    capacity <<= 1;
  slot_t *table = calloc(capacity, sizeof(slot_t));
  uint64_t state = seed | 1, check = 0;
  for (size_t i = 0; i < num_keys; ++i) {
    uint64_t key = wl_next_random(&state) % (num_keys * 3 / 2 + 1);
    insert(table, capacity - 1, key, i);
  }
  for (size_t i = 0; i < num_keys * 2; ++i) {
    uint64_t key = wl_next_random(&state) % (num_keys * 3 / 2 + 1);
    check = check * 31 + lookup(table, capacity - 1, key);
  }
  for (size_t i = 0; i < capacity; ++i)
    check ^= (uint64_t)table[i].hits << (i & 31);
  free(table);
  return check;
}
