// The bundled workload's driver: runs the four kernels at a size scaled by argv[1]
// (default 1: about 30 million instructions), argv[2] times (default 1: bench/accuracy
// repeats a small run to time it), and prints their checksums.
#include "workload.h"
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  double scale = argc > 1 ? std::atof(argv[1]) : 1.0;
  long repeat = argc > 2 ? std::atol(argv[2]) : 1;
  if (scale <= 0 || repeat < 1) {
    std::fprintf(stderr, "usage: %s [scale > 0 [repeat >= 1]]\n", argv[0]);
    return 2;
  }
  uint64_t seed = 0x9E3779B97F4A7C15ULL;
  uint64_t hash = 0, matrix = 0, packed = 0, sorted = 0;
  for (long r = 0; r < repeat; ++r) {
    hash = wl_hash_kernel(static_cast<size_t>(30000 * scale), seed);
    matrix = wl_matrix_kernel(static_cast<size_t>(64 * scale), seed + 1);
    packed = wl_compress_kernel(static_cast<size_t>(90000 * scale), seed + 2);
    sorted = wl_sort_kernel(static_cast<size_t>(15000 * scale), seed + 3);
  }
  std::printf("hash %016llx\nmatrix %016llx\ncompress %016llx\nsort %016llx\n",
              (unsigned long long)hash, (unsigned long long)matrix,
              (unsigned long long)packed, (unsigned long long)sorted);
  return 0;
}
