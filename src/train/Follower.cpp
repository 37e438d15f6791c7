/// \file
/// A rank other than the leader.
#include "Ranks.h"
#include "StartPolicy.h"
#include "TeamStep.h"

namespace mlgo {

llvm::Expected<TrainResult> follow(Team &T, JobSet &Jobs) {
  auto Start = loadStartPolicy(Jobs.options().Search.Init);
  if (!Start)
    return Start.takeError();
  uint64_t Step = 0;
  std::vector<float> Parameters;
  std::vector<std::vector<float>> Directions;
  while (true) {
    auto More = T.shareStep(Step, Parameters);
    if (!More)
      return More.takeError();
    if (!*More)
      return TrainResult();
    // Only once the leader has checked and locked the output directory (it shares a
    // step after that) does this rank write into it.
    if (!Jobs.haveEvaluators())
      if (llvm::Error E = Jobs.makeEvaluators(variantPrefix(T)))
        return E;
    auto Evaluations = evaluateStep(T, Jobs, *Start, Step, Parameters, Directions);
    if (!Evaluations)
      return Evaluations.takeError();
  }
}

} // namespace mlgo
