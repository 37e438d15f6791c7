/// \file
/// Fuzzes the reader of what the compiler writes on the interactive channel. The bytes
/// arrive in pieces, as from a pipe: the first input byte chooses the piece size.
/// With MLGO_FUZZ_WRITE_SEED=F it writes a seed to F and exits instead: a stream as
/// LLVM 22 writes it (header, a function, two observations).
#include "FuzzInput.h"
#include "ProtocolReader.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>

using namespace mlgo;

namespace {

std::string exampleStream() {
  Json Header = {{"features", featureSpecsToJson()},
                 {"advice",
                  {{"name", "index_to_evict"}, {"type", "int64_t"}, {"port", 0},
                   {"shape", {1}}}}};
  Observation O;
  for (int Column = 0; Column < NumColumns; ++Column)
    O.setInt(F_mask, Column, Column % 2);
  std::vector<uint8_t> Bytes = O.toBytes();
  std::string Observed(Bytes.begin(), Bytes.end());
  return "\x40" + dumpJson(Header, -1) + "\n{\"context\":\"main\"}\n" +
         "{\"observation\":0}\n" + Observed + "\n{\"observation\":1}\n" + Observed + "\n";
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  if (const char *Seed = std::getenv("MLGO_FUZZ_WRITE_SEED")) {
    std::ofstream(Seed, std::ios::binary) << exampleStream();
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0)
    return 0;
  size_t Piece = 1 + Data[0] * 61;
  ++Data, --Size;
  ProtocolReader Reader("clang");
  for (size_t At = 0; At < Size;) {
    size_t N = std::min(Piece, Size - At);
    Reader.append(reinterpret_cast<const char *>(Data + At), N);
    At += N;
    for (;;) {
      auto Message = Reader.next();
      if (!Message) {
        llvm::consumeError(Message.takeError());
        return 0;
      }
      if (!*Message)
        break;
    }
  }
  return 0;
}
