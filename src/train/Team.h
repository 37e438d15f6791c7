/// \file
/// The processes that evaluate a training run's steps: this process alone, or the
/// ranks of an MPI job. The leader (rank 0) owns the optimizer, the log and the
/// checkpoint; every step it announces the parameters, each rank evaluates its share of
/// the step's evaluations, and the leader gathers them. Directions come from the seed,
/// so no perturbation vector crosses the network.
#pragma once

#include "StepEvaluations.h"

#include "llvm/Support/Error.h"
#include <memory>
#include <vector>

namespace mlgo {

class Team {
public:
  virtual ~Team() = default;
  virtual unsigned rank() const { return 0; }
  virtual unsigned size() const { return 1; }
  bool leader() const { return rank() == 0; }

  /// On the leader: announces step \p Step with \p Parameters. On another rank: waits
  /// for the announcement and fills them in; false when the leader has finished.
  virtual llvm::Expected<bool> shareStep(uint64_t &Step, std::vector<float> &Parameters) {
    return true;
  }
  /// Collects every rank's evaluations into the leader's \p Evaluations.
  virtual llvm::Error gather(std::vector<StepEvaluation> &Evaluations) {
    return llvm::Error::success();
  }
  /// On the leader, after the last step: releases the other ranks.
  virtual void release() {}
  /// Ends the whole job with \p Code after an error on this rank.
  [[noreturn]] virtual void abort(int Code);
};

/// This process alone.
std::unique_ptr<Team> localTeam();

/// Whether this build can train on MPI.
bool haveMpi();

/// The ranks of the MPI job this process belongs to (initializing MPI; finalized when
/// the team is destroyed).
llvm::Expected<std::unique_ptr<Team>> mpiTeam();

} // namespace mlgo
