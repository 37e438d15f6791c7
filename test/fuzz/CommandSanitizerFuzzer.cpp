/// \file
/// Fuzzes a module's .cmd: splitting the recorded words and sanitizing them. Whatever
/// the sanitizer keeps must be free of options that load code or name other files.
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
  for (llvm::StringRef Word : *Kept)
    if (Word.starts_with("@") || Word == "-load" || Word.starts_with("-fplugin") ||
        Word.starts_with("-fpass-plugin") || Word == "-o")
      std::abort(); // a kept word that the sanitizer promises to remove
  return 0;
}
