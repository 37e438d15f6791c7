/// \file
/// Fuzzes a module's .cmd: splitting the recorded words and sanitizing them. What the
/// sanitizer keeps must pass it again unchanged: no word of it loads code, names a
/// response file or writes a file (a value, such as the triple after -triple, is read
/// as the value it is, as clang reads it).
#include "FuzzInput.h"
#include "corpus/Corpus.h"

#include "llvm/ADT/StringRef.h"
#include <cstdlib>

using namespace mlgo;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Bytes(reinterpret_cast<const char *>(Data), Size);
  auto Kept = sanitizeCommand(splitCommand(Bytes), "input.cmd");
  if (!Kept) {
    llvm::consumeError(Kept.takeError());
    return 0;
  }
  auto Again = sanitizeCommand(*Kept, "kept.cmd");
  if (!Again || *Again != *Kept)
    std::abort(); // the sanitizer kept something it would not keep
  return 0;
}
