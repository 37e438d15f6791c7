/// \file
/// runTrain: checks the search's settings, reads the programs' traces once for the
/// whole run, joins the team of processes and plays this process's part (Ranks.h).
#include "Train.h"
#include "JobSet.h"
#include "Ranks.h"
#include "Team.h"
#include "support/Error.h"

#include <cmath>
#include <memory>

namespace mlgo {

namespace {

/// Whether the search can run: the CLI checks these too, but a library caller must not
/// get a policy of NaNs either.
llvm::Error checkSearch(const SearchOptions &Search) {
  if (Search.Perturbations == 0)
    return inputError("--perturbations", "must be at least 1");
  if (Search.TopDirections > Search.Perturbations)
    return inputError("--top-directions", "{} is more than --perturbations ({})",
                      Search.TopDirections, Search.Perturbations);
  if (!(std::isfinite(Search.Sigma) && Search.Sigma > 0))
    return inputError("--sigma", "{} is not a positive number", Search.Sigma);
  if (!(std::isfinite(Search.StepSize) && Search.StepSize > 0))
    return inputError("--step-size", "{} is not a positive number", Search.StepSize);
  return llvm::Error::success();
}

/// The processes of the run: the ranks of an MPI job, or this one alone.
llvm::Expected<std::unique_ptr<Team>> joinTeam(bool Mpi) {
  if (Mpi)
    return mpiTeam();
  return localTeam();
}

} // namespace

llvm::Expected<TrainResult> runTrain(const TrainOptions &Given) {
  if (llvm::Error E = checkSearch(Given.Search))
    return E;
  // Each trace is read once for every evaluation of the run; the automatic shard is
  // its context's decision, and the checkpoint records it.
  auto Jobs = JobSet::create(Given, /*Replaying=*/true);
  if (!Jobs)
    return Jobs.takeError();
  const RunOptions &Run = (*Jobs)->options().Run;
  auto T = joinTeam(Run.Mpi);
  if (!T)
    return T.takeError();
  auto Result = (*T)->leader() ? lead(**T, **Jobs) : follow(**T, **Jobs);
  // The other ranks wait for this one: an error ends the whole job.
  if (!Result && (*T)->size() > 1)
    (*T)->abort(Run.ReportError ? Run.ReportError(Result.takeError()) : 1);
  if (Result)
    Result->Leader = (*T)->leader();
  return Result;
}

} // namespace mlgo
