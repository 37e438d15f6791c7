/* LZ77-style compressor (hash-chained matches) and its decompressor, checked by a
   round trip over generated text with repetitions. */
#include "workload.h"
#include <stdlib.h>
#include <string.h>

enum { HASH_BITS = 12, MIN_MATCH = 4, MAX_MATCH = 255, WINDOW = 4096, MAX_CHAIN = 16 };

static uint32_t hash4(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return (v * 2654435761u) >> (32 - HASH_BITS);
}

/* Writes in[start, end) as literal runs of at most 255 bytes; returns the new size. */
static size_t emit_literals(const uint8_t *in, size_t start, size_t end, uint8_t *out,
                            size_t o) {
  while (start < end) {
    size_t run = end - start > 255 ? 255 : end - start;
    out[o++] = 0;
    out[o++] = (uint8_t)run;
    memcpy(out + o, in + start, run);
    o += run;
    start += run;
  }
  return o;
}

/* Output: literal runs as (0, len, bytes...) and matches as (len, dist_lo, dist_hi). */
static size_t compress(const uint8_t *in, size_t n, uint8_t *out) {
  int32_t head[1 << HASH_BITS];
  int32_t *prev = malloc(n * sizeof(int32_t));
  memset(head, -1, sizeof(head));
  size_t o = 0, lit_start = 0, i = 0;
  while (i + MIN_MATCH <= n) {
    uint32_t h = hash4(in + i);
    size_t best_len = 0, best_dist = 0;
    int32_t cand = head[h];
    for (int chain = 0; cand >= 0 && chain < MAX_CHAIN; ++chain, cand = prev[cand]) {
      size_t dist = i - (size_t)cand;
      if (dist > WINDOW)
        break;
      size_t len = 0;
      while (len < MAX_MATCH && i + len < n && in[cand + len] == in[i + len])
        ++len;
      if (len > best_len) {
        best_len = len;
        best_dist = dist;
      }
    }
    prev[i] = head[h];
    head[h] = (int32_t)i;
    if (best_len >= MIN_MATCH) {
      o = emit_literals(in, lit_start, i, out, o);
      out[o++] = (uint8_t)best_len;
      out[o++] = (uint8_t)(best_dist & 0xff);
      out[o++] = (uint8_t)(best_dist >> 8);
      for (size_t k = 1; k < best_len && i + k + MIN_MATCH <= n; ++k) {
        uint32_t hk = hash4(in + i + k);
        prev[i + k] = head[hk];
        head[hk] = (int32_t)(i + k);
      }
      i += best_len;
      lit_start = i;
    } else {
      ++i;
    }
  }
  o = emit_literals(in, lit_start, n, out, o);
  free(prev);
  return o;
}

static size_t decompress(const uint8_t *in, size_t n, uint8_t *out) {
  size_t i = 0, o = 0;
  while (i < n) {
    uint8_t tag = in[i++];
    if (tag == 0) {
      uint8_t run = in[i++];
      memcpy(out + o, in + i, run);
      i += run;
      o += run;
    } else {
      size_t dist = in[i] | (size_t)in[i + 1] << 8;
      i += 2;
      for (size_t k = 0; k < tag; ++k, ++o)
        out[o] = out[o - dist];
    }
  }
  return o;
}

uint64_t wl_compress_kernel(size_t bytes, uint64_t seed) {
  static const char *words[] = {"register ", "allocation ", "eviction ", "policy ",
                                "spill ",    "split ",      "live ",     "range ",
                                "interval ", "weight ",     "hint ",     "copy "};
  uint8_t *text = malloc(bytes + 16);
  uint8_t *packed = malloc(bytes * 2 + 64);
  uint8_t *unpacked = malloc(bytes + 16);
  uint64_t state = seed | 1;
  size_t n = 0;
  while (n < bytes) {
    const char *w = words[wl_next_random(&state) % 12];
    size_t len = strlen(w);
    if (n + len > bytes)
      len = bytes - n;
    memcpy(text + n, w, len);
    n += len;
    if (wl_next_random(&state) % 8 == 0 && n < bytes)
      text[n++] = (uint8_t)('0' + wl_next_random(&state) % 10);
  }
  size_t packed_size = compress(text, n, packed);
  size_t unpacked_size = decompress(packed, packed_size, unpacked);
  uint64_t check = packed_size * 1000003ULL + unpacked_size;
  if (unpacked_size != n || memcmp(text, unpacked, n) != 0)
    check = 0; /* a round-trip failure shows as a wrong checksum */
  free(text);
  free(packed);
  free(unpacked);
  return check;
}
