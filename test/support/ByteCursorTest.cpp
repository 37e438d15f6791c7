#include "TestSupport.h"
#include "support/ByteCursor.h"

#include <optional>
#include <utility>
#include <vector>

using namespace mlgo;

namespace {
/// What the bounded cursor reads from the first \p Size bytes of \p Bytes, and where it
/// stops; nothing if they end first.
std::optional<std::pair<uint64_t, size_t>> bounded(const std::vector<uint8_t> &Bytes,
                                                   size_t Size) {
  ByteCursor C{Bytes.data(), Bytes.data() + Size};
  uint64_t V = C.varint();
  if (C.Short)
    return std::nullopt;
  return std::make_pair(V, size_t(C.P - Bytes.data()));
}
} // namespace

TEST_CASE("an unchecked varint reads what the bounded cursor reads", "[support]") {
  // Values of every length, and over-long encodings: 11 bytes with the continuation
  // bit set (read as 10), and bits past 64 (dropped).
  std::vector<std::vector<uint8_t>> Encodings;
  for (uint64_t V : {uint64_t(0), uint64_t(1), uint64_t(127), uint64_t(128),
                     uint64_t(300), uint64_t(1) << 35, ~uint64_t(0)}) {
    std::vector<uint8_t> E(20, 0);
    E.resize(putVarint(E.data(), V) - E.data());
    Encodings.push_back(E);
  }
  Encodings.push_back(std::vector<uint8_t>(11, 0xff));
  Encodings.push_back({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f});
  for (std::vector<uint8_t> E : Encodings) {
    size_t Length = E.size();
    E.resize(Length + MaxVarintBytes, 0x55); // what follows the record
    const uint8_t *P = E.data();
    uint64_t V = readVarint(P);
    // With room for 10 bytes the cursor takes the unchecked path; with exactly the
    // record's bytes (fewer than 10) the bounded one.
    CHECK(bounded(E, E.size()) == std::make_pair(V, size_t(P - E.data())));
    if (Length <= MaxVarintBytes)
      CHECK(bounded(E, Length) == std::make_pair(V, size_t(P - E.data())));
  }
  // Cut short: the bounded cursor says so.
  std::vector<uint8_t> Cut = {0x80, 0x80};
  CHECK(!bounded(Cut, Cut.size()));
}
