/// \file
/// The reward curve of a training run as an SVG: the unperturbed policy's predicted
/// speedup per step (a line) over the perturbations' range (a band), the best so far of
/// every evaluation, perturbations included (a dashed line), a legend, and the best
/// policy's validation (points at the step it was validated after, labelled).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace mlgo {

/// A step of the log: its speedups, fractions as the log's; none where the log has no
/// number that plots.
struct StepPoint {
  double Step;
  std::optional<double> Unperturbed, Low, High, Best;
};

/// A validation point: the best policy's speedup on one trace.
struct ValidationPoint {
  double Step, Speedup; ///< a fraction, as the log's
  std::string Label;
  bool HeldOut;
};

/// The SVG of \p Points (at least one) and \p Checked.
std::string rewardCurveSvg(const std::vector<StepPoint> &Points,
                           const std::vector<ValidationPoint> &Checked);

} // namespace mlgo
