/// \file
/// Training in one process; and what a build without MPI answers to --mpi.
#include "Team.h"
#include "support/Error.h"

#include <cstdlib>

namespace mlgo {

void Team::abort(int Code) { std::exit(Code); }

std::unique_ptr<Team> localTeam() { return std::make_unique<Team>(); }

#ifndef MLGO_HAVE_MPI
bool haveMpi() { return false; }

llvm::Expected<std::unique_ptr<Team>> mpiTeam() {
  return inputError("--mpi", "this mlgo-ra was built without MPI (configure with "
                             "-DMLGO_RA_WITH_MPI=ON and OpenMPI installed)");
}
#endif

} // namespace mlgo
