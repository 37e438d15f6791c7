/// \file
/// Loading the start policy.
#include "StartPolicy.h"
#include "support/Error.h"

namespace mlgo {

llvm::Expected<Policy> loadStartPolicy(const std::string &Init) {
  auto Start = loadPolicy(Init);
  if (!Start)
    return Start.takeError();
  if (!Start->usesAdvisor())
    return inputError(Init, "has no parameters to train (it is LLVM's own heuristic); "
                            "start from a network policy such as 'initial'");
  return Start;
}

} // namespace mlgo
