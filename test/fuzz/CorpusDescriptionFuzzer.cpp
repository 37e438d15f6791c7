/// \file
/// Fuzzes corpus_description.json: loading a corpus and building each module's
/// recompile command from it (global_command_override included).
#include "FuzzInput.h"
#include "corpus/Corpus.h"

using namespace mlgo;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Dir = fuzz::emptyDirectory("corpus");
  fuzz::writeInput(Data, Size, "corpus/corpus_description.json");
  auto C = loadCorpus(Dir);
  if (!C) {
    llvm::consumeError(C.takeError());
    return 0;
  }
  for (const std::string &Module : C->Modules)
    fuzz::drop(sanitizedModuleCommand(*C, Module));
  return 0;
}
