/// \file
/// Adam (Kingma and Ba), as the reference ES uses it, ascending the estimated gradient.
/// Its state is part of a checkpoint, so a resumed run continues the same trajectory.
#pragma once

#include "support/Json.h"

#include "llvm/Support/Error.h"
#include <optional>
#include <vector>

namespace mlgo {

class Adam {
public:
  Adam() = default;
  Adam(size_t Size, double StepSize)
      : StepSize(StepSize), First(Size, 0.0), Second(Size, 0.0) {}

  /// Moves \p Parameters along \p Gradient (ascent). If the update would take a
  /// parameter out of the finite floats, nothing changes and its index is returned.
  std::optional<size_t> step(std::vector<float> &Parameters,
                             const std::vector<double> &Gradient);

  uint64_t steps() const { return Steps; }
  /// The parameters it moves (the size of its moments).
  size_t size() const { return First.size(); }
  double stepSize() const { return StepSize; }
  Json toJSON() const;
  /// Reads a checkpointed state, whose settings must be in range (0 <= beta < 1, a
  /// positive step size and epsilon, finite moments): a beta of 1 divides by 0.
  static llvm::Expected<Adam> fromJSON(const Json &Value, llvm::StringRef Input);

private:
  double StepSize = 0.005, Beta1 = 0.9, Beta2 = 0.999, Epsilon = 1e-8;
  uint64_t Steps = 0;
  std::vector<double> First, Second;
};

} // namespace mlgo
