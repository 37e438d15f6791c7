/// \file
/// The perturbation directions of Evolution Strategies, derived from (seed, step,
/// direction) alone: any process (a resumed run, another MPI rank) draws the same
/// vectors without receiving them, bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mlgo {

/// A standard normal vector of \p Size floats for direction \p Index of \p Step.
std::vector<float> perturbationDirection(uint64_t Seed, uint64_t Step, uint32_t Index,
                                         size_t Size);

} // namespace mlgo
