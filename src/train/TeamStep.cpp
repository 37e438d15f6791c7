/// \file
/// Sharing out and gathering a step's evaluations.
#include "TeamStep.h"
#include "Directions.h"

#include <fmt/format.h>

namespace mlgo {

std::string variantPrefix(const Team &T) { return fmt::format("r{}-", T.rank()); }

llvm::Expected<std::vector<StepEvaluation>>
evaluateStep(Team &T, JobSet &Jobs, const Policy &Start, uint64_t Step,
             const std::vector<float> &Parameters,
             std::vector<std::vector<float>> &Directions) {
  const SearchOptions &Search = Jobs.options().Search;
  Directions.assign(Search.Perturbations, {});
  for (uint32_t D = 0; D < Search.Perturbations; ++D)
    Directions[D] = perturbationDirection(Search.Seed, Step, D, Parameters.size());
  std::vector<StepEvaluation> Evaluations = layoutStep(Search.Perturbations);
  StepShare Share;
  Share.Step = Step;
  Share.Offset = T.rank();
  Share.Stride = T.size();
  Share.Jobs = Jobs.options().Evaluation.Jobs;
  Share.Sigma = Search.Sigma;
  Share.NamePrefix = variantPrefix(T);
  if (llvm::Error E =
          evaluateShare(Jobs, Start, Parameters, Directions, Share, Evaluations))
    return E;
  if (llvm::Error E = T.gather(Evaluations))
    return E;
  return Evaluations;
}

} // namespace mlgo
