/// \file
/// Fitness shaping: how a step's rewards become the weights of its directions in the
/// ES gradient (Gradient.h). Z-scores keep the rewards' spacing; centered ranks keep
/// only their order, so one outlier (a perturbation that found a big gain or broke the
/// code) does not drown the other directions (Salimans et al. 2017).
#pragma once

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <vector>

namespace mlgo {

enum class Fitness { ZScore, Rank };

/// "zscore" or "rank", as --fitness spells it.
const char *fitnessName(Fitness F);
std::optional<Fitness> parseFitnessName(llvm::StringRef Name);

/// The centered ranks of \p Values: rank r (0 for the lowest; tied values share the
/// mean of their ranks) maps to (r - (n - 1) / 2) / (n - 1), in [-0.5, 0.5]; a single
/// value maps to 0.
std::vector<double> centeredRanks(const std::vector<double> &Values);

} // namespace mlgo
