/* The bundled workload: four compute kernels with register pressure over generated,
   deterministic data. Each kernel returns a checksum so the compiler keeps its work. */
#ifndef MLGO_WORKLOAD_H
#define MLGO_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A small deterministic generator (xorshift64*), shared by all kernels. */
uint64_t wl_next_random(uint64_t *state);

/* hash.c: insert and look up keys in an open-addressing hash table. */
uint64_t wl_hash_kernel(size_t num_keys, uint64_t seed);

/* matrix.c: blocked multiply of two n x n float matrices. */
uint64_t wl_matrix_kernel(size_t n, uint64_t seed);

/* compress.c: LZ77-style compression and decompression of generated text. */
uint64_t wl_compress_kernel(size_t bytes, uint64_t seed);

/* sort.cpp: sort records by several keys. */
uint64_t wl_sort_kernel(size_t num_records, uint64_t seed);

#ifdef __cplusplus
}
#endif

#endif
