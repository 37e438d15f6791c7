/// \file
/// The loops calibrate times: x86-64 assembly, each a chain through a store and a load,
/// but for the pointer chases and the store throughput's.
#pragma once

#include "Calibrate.h"

#include <cstdint>
#include <vector>

namespace mlgo {

/// CPU seconds of the fastest of \p Runs runs of \p Iterations iterations of a chain of
/// two dependent 64-bit multiplies (6 cycles an iteration).
double multiplyChainSeconds(uint64_t Iterations, unsigned Runs);

/// The same for each store-and-load loop; LoopCycles::Cycles holds seconds (the caller
/// turns them into cycles). Empty on a host that is not x86-64.
std::vector<LoopCycles> storeLoadLoopSeconds(uint64_t Iterations, unsigned Runs);

} // namespace mlgo
