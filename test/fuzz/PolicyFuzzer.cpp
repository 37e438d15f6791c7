/// \file
/// Fuzzes policy files: loading one (`compile --policy`, `export`, `train --init`) and
/// asking it for a decision, as the interactive host does.
#include "FuzzInput.h"
#include "policy/Policy.h"

using namespace mlgo;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Path = fuzz::writeInput(Data, Size, "policy.json");
  auto P = loadPolicy(Path);
  if (!P) {
    llvm::consumeError(P.takeError());
    return 0;
  }
  Observation O;
  for (int Column = 0; Column < NumColumns; ++Column)
    O.setInt(F_mask, Column, Column % 3 != 0);
  (void)P->decide(O);
  return 0;
}
