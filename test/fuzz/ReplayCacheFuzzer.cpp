/// \file
/// Fuzzes the replay cache's reader: an input is a description and its events (split at
/// the first NUL byte), each stored sealed, as storeCachedReplay would, so that the
/// checks behind the seals are reached; then without its description's seal. With
/// MLGO_FUZZ_WRITE_SEED=F it writes a stored entry in that form to F and exits.
#include "FuzzInput.h"
#include "detail/ResultCache.h"
#include "support/InputFile.h"
#include "support/OutputFile.h"
#include "support/SealedFile.h"
#include "support/Warning.h"

#include "llvm/Support/FileSystem.h"
#include <cstdlib>

using namespace mlgo;

namespace {

constexpr const char *Key = "0123456789abcdef";

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  setWarningSink([](llvm::StringRef) {}); // damaged entries are expected here
  if (const char *Seed = std::getenv("MLGO_FUZZ_WRITE_SEED")) {
    std::string Dir = fuzz::emptyDirectory("seed");
    Replayed R;
    R.Counts.TraceInstructions = 1000;
    R.Costs.Cycles = 400;
    R.Costs.Threads = 2;
    R.Costs.FunctionCycles = {300, 100};
    R.Costs.FunctionInstructions = {700, 300};
    R.Costs.EventCycles = {{1, {3, 0, 70000, 2}}, {7, {1}}};
    if (llvm::Error E = storeCachedReplay(Dir, Key, R))
      std::abort();
    auto Json = readRegularFile(Dir + "/replay/" + Key + ".json");
    auto Events = readRegularFile(Dir + "/replay/" + Key + ".events");
    if (!Json || !Events ||
        writeFileAtomically(Seed, (*Json)->getBuffer().str() + std::string(1, '\0') +
                                      (*Events)->getBuffer().str()))
      std::abort();
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Bytes(reinterpret_cast<const char *>(Data), Size);
  auto [Description, Events] = Bytes.split('\0');
  std::string Dir = fuzz::emptyDirectory("cache");
  std::string Base = Dir + "/replay/" + Key;
  if (writeSealedFile(Base + ".json", Description) || writeSealedFile(Base + ".events", Events))
    std::abort();
  (void)loadCachedReplay(Dir, Key);
  // Unsealed (damaged from outside): dropped, never parsed.
  llvm::sys::fs::remove(Base + ".json.sum");
  if (writeFileAtomically(Base + ".json", Description))
    std::abort();
  (void)loadCachedReplay(Dir, Key);
  return 0;
}
