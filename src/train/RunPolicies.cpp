/// \file
/// Writing a run's policies.
#include "RunPolicies.h"
#include "RunDirectory.h"
#include "StepEvaluations.h"
#include "support/Error.h"

#include "llvm/Support/FileSystem.h"

namespace mlgo {

llvm::Error saveStepPolicies(const Policy &Start, const Checkpoint &State,
                             const std::string &Out) {
  if (llvm::Error E = savePolicy(withParameters(Start, State.Parameters, "trained"),
                                 Out + "/" + TrainPolicyFile))
    return E;
  return savePolicy(withParameters(Start, State.BestParameters, "best"),
                    Out + "/" + TrainBestPolicyFile);
}

llvm::Error saveShortlist(const Policy &Start, const Shortlist &List,
                          const std::string &Out) {
  std::string Directory = Out + "/" + TrainShortlistDirectory;
  if (std::error_code EC = llvm::sys::fs::create_directories(Directory))
    return inputError(Directory, "cannot create: {}", EC.message());
  Json Index = Json::array();
  for (size_t I = 0; I < List.entries().size(); ++I) {
    const ShortlistEntry &E = List.entries()[I];
    std::string Number = std::to_string(I + 1), Name = Number + ".json";
    Policy Listed = withParameters(Start, E.Parameters, "shortlist-" + Number);
    if (llvm::Error Err = savePolicy(Listed, Directory + "/" + Name))
      return Err;
    Index.push_back({{"policy", std::string(TrainShortlistDirectory) + "/" + Name},
                     {"speedup", E.Speedup},
                     {"step", E.Step}});
  }
  return writeJsonFile(Out + "/" + TrainShortlistFile, Index);
}

llvm::Error saveCheckpointedPolicies(const Policy &Start, const Checkpoint &State,
                                     const std::string &Out, unsigned ShortlistSize) {
  if (State.NextStep)
    if (llvm::Error E = saveStepPolicies(Start, State, Out))
      return E;
  if (ShortlistSize)
    return saveShortlist(Start, State.Shortlisted, Out);
  return llvm::Error::success();
}

} // namespace mlgo
