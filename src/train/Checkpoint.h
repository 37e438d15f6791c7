/// \file
/// A training run's checkpoint (DIR/checkpoint.json): the settings it was trained with,
/// the next step, the parameters, Adam's state, the best policy so far and, with train
/// --shortlist, the shortlist. Everything in it is checked on reading, since a resumed
/// run writes policies from it.
#pragma once

#include "Adam.h"
#include "Shortlist.h"
#include "TrainOptions.h"
#include "support/Json.h"

#include "llvm/Support/Error.h"
#include <limits>
#include <string>
#include <vector>

namespace mlgo {

struct Checkpoint {
  uint64_t NextStep = 0;
  std::vector<float> Parameters;
  Adam Optimizer;
  double InitialSpeedup = 0;
  double BestSpeedup = std::numeric_limits<double>::lowest(); ///< none yet
  std::vector<float> BestParameters;
  /// With train --shortlist K: the K best distinct policies evaluated.
  Shortlist Shortlisted;

  Json toJSON(const TrainOptions &Opts) const;
};

/// The settings a resumed run must share with the run it continues.
Json trainSettings(const TrainOptions &Opts);

/// Whether \p Value is a checkpoint of the format and version this mlgo-ra writes;
/// \p Path names the file in errors.
llvm::Error checkCheckpointFormat(const Json &Value, llvm::StringRef Path);

/// Reads the checkpoint at \p Path of a run with \p Opts whose policy has \p Size
/// parameters.
llvm::Expected<Checkpoint> readCheckpoint(const std::string &Path, const TrainOptions &Opts,
                                          size_t Size);

} // namespace mlgo
