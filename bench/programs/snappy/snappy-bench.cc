// snappy-bench: the arena's driver of Snappy (bench/programs/snappy/recipe.sh), since the
// library has no program of its own. Usage: snappy-bench MODE FILE BLOCK ROUNDS.
// It cuts FILE into blocks of BLOCK bytes and, ROUNDS times over, compresses each block,
// decompresses it again and checks that the round trip gives the block back. MODE picks
// the API, so that the held-out run can take other paths through the library:
//   flat    Compress and Uncompress on strings;
//   stream  Compress through a Source and a Sink, IsValidCompressedBuffer, then
//           RawUncompressToIOVec into three pieces.
// Prints, for the file, the blocks, the bytes in and out and a checksum of the compressed
// stream (FNV-1a): the output is the same on every run and for every policy.
#include <sys/uio.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "snappy-sinksource.h"
#include "snappy.h"

namespace {

uint64_t fnv1a(uint64_t h, const char* p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    h ^= static_cast<unsigned char>(p[i]);
    h *= 0x100000001b3ULL;
  }
  return h;
}

[[noreturn]] void fail(const char* what, size_t block) {
  std::fprintf(stderr, "snappy-bench: %s (block %zu)\n", what, block);
  std::exit(1);
}

// One block through Compress/Uncompress on strings; the compressed bytes in *out.
void flat(const char* in, size_t n, size_t block, std::string* out, std::string* back) {
  snappy::Compress(in, n, out);
  if (!snappy::Uncompress(out->data(), out->size(), back)) fail("Uncompress failed", block);
  if (back->size() != n || std::memcmp(back->data(), in, n) != 0) fail("round trip differs", block);
}

// One block through the Source/Sink interface and the iovec decompressor.
void stream(const char* in, size_t n, size_t block, std::string* out, std::vector<char>* back) {
  out->resize(snappy::MaxCompressedLength(n));
  snappy::ByteArraySource source(in, n);
  snappy::UncheckedByteArraySink sink(&(*out)[0]);
  out->resize(snappy::Compress(&source, &sink));
  size_t length = 0;
  if (!snappy::IsValidCompressedBuffer(out->data(), out->size())) fail("invalid stream", block);
  if (!snappy::GetUncompressedLength(out->data(), out->size(), &length) || length != n)
    fail("wrong uncompressed length", block);
  back->assign(n, 0);
  // Three uneven pieces, so that copies cross the pieces' boundaries.
  size_t a = n / 7, b = n / 2;
  struct iovec iov[3] = {{back->data(), a}, {back->data() + a, b - a}, {back->data() + b, n - b}};
  if (!snappy::RawUncompressToIOVec(out->data(), out->size(), iov, 3)) fail("RawUncompressToIOVec failed", block);
  if (std::memcmp(back->data(), in, n) != 0) fail("round trip differs", block);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: snappy-bench flat|stream FILE BLOCK ROUNDS\n");
    return 2;
  }
  std::string mode = argv[1];
  // Read in one piece (not byte by byte), so that the run's time is the library's.
  std::ifstream file(argv[2], std::ios::binary | std::ios::ate);
  if (!file) fail("cannot open the file", 0);
  std::string data(static_cast<size_t>(file.tellg()), '\0');
  file.seekg(0);
  if (!file.read(&data[0], data.size())) fail("cannot read the file", 0);
  size_t block_size = std::strtoul(argv[3], nullptr, 10);
  int rounds = std::atoi(argv[4]);
  if (block_size == 0 || rounds <= 0 || (mode != "flat" && mode != "stream")) {
    std::fprintf(stderr, "snappy-bench: bad arguments\n");
    return 2;
  }
  std::string out, back;
  std::vector<char> pieces;
  uint64_t sum = 0xcbf29ce484222325ULL;
  size_t blocks = 0, compressed = 0;
  for (int round = 0; round < rounds; round++) {
    size_t block = 0;
    for (size_t at = 0; at < data.size(); at += block_size, block++) {
      size_t n = data.size() - at < block_size ? data.size() - at : block_size;
      if (mode == "flat")
        flat(data.data() + at, n, block, &out, &back);
      else
        stream(data.data() + at, n, block, &out, &pieces);
      if (round == 0) {
        sum = fnv1a(sum, out.data(), out.size());
        compressed += out.size();
        blocks++;
      }
    }
  }
  std::printf("%s %s: %zu blocks of %zu, %zu bytes -> %zu bytes (%.2f%%), %d rounds, fnv1a %016llx\n",
              mode.c_str(), argv[2], blocks, block_size, data.size(), compressed,
              data.size() ? 100.0 * compressed / data.size() : 0.0, rounds,
              static_cast<unsigned long long>(sum));
  return 0;
}
