/// \file
/// Little-endian binary records: a bounds-checked reading cursor and LEB128 writers,
/// shared by the collector stream and the .bbtrace format.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mlgo {

/// Unsigned LEB128 at \p P, which has 10 bytes at least (MaxVarintBytes): reads at most
/// that many, as ByteCursor::varint does (the bits past 64 of an over-long encoding are
/// dropped), and moves \p P past them.
constexpr size_t MaxVarintBytes = 10;
inline uint64_t readVarint(const uint8_t *&P) {
  uint64_t V = *P & 0x7f;
  if (!(*P++ & 0x80)) // one byte: most of them
    return V;
  for (unsigned Shift = 7; Shift < 64; Shift += 7) {
    uint8_t B = *P++;
    V |= uint64_t(B & 0x7f) << Shift;
    if (!(B & 0x80))
      return V;
  }
  return V;
}

/// Reads from [P, E). Running past the end sets Short and yields zeros, so a record is
/// parsed first and checked for completeness once.
struct ByteCursor {
  const uint8_t *P;
  const uint8_t *E;
  bool Short = false;

  /// Unsigned LEB128. Over-long encodings are caught by the caller's range checks.
  uint64_t varint() {
    if (size_t(E - P) >= MaxVarintBytes)
      return readVarint(P);
    uint64_t V = 0;
    for (unsigned Shift = 0; Shift < 64; Shift += 7) {
      if (P == E) {
        Short = true;
        return 0;
      }
      uint8_t B = *P++;
      V |= uint64_t(B & 0x7f) << Shift;
      if (!(B & 0x80))
        return V;
    }
    return V;
  }
  uint8_t byte() {
    if (P == E) {
      Short = true;
      return 0;
    }
    return *P++;
  }
  /// Copies \p N bytes into \p Out.
  void bytes(size_t N, std::vector<uint8_t> &Out) {
    if (size_t(E - P) < N) {
      Short = true;
      P = E;
      return;
    }
    Out.assign(P, P + N);
    P += N;
  }
  std::string string(size_t N) {
    std::vector<uint8_t> Bytes;
    bytes(N, Bytes);
    return std::string(Bytes.begin(), Bytes.end());
  }
};

/// Writes \p V as unsigned LEB128 at \p P (up to 10 bytes); returns the end.
inline uint8_t *putVarint(uint8_t *P, uint64_t V) {
  for (; V >= 0x80; V >>= 7)
    *P++ = uint8_t(V | 0x80);
  *P++ = uint8_t(V);
  return P;
}

inline void appendVarint(std::string &Out, uint64_t V) {
  for (; V >= 0x80; V >>= 7)
    Out.push_back(char(V | 0x80));
  Out.push_back(char(V));
}

} // namespace mlgo
