/// \file
/// The loops calibrate times: x86-64 assembly, each a chain through a store and a load,
/// but for the pointer chases and the store throughput's.
#pragma once

#include "Calibrate.h"
#include "CpuSeconds.h"

#include <cstdint>
#include <vector>

namespace mlgo {

/// A store-and-load loop: what it is (LoopCycles::Cycles left 0 for the caller to
/// fill) and its body, an iteration a count.
struct StoreLoadLoop {
  LoopCycles Loop;
  LoopBody Body;
};

/// The store-and-load loops. Empty on a host that is not x86-64.
std::vector<StoreLoadLoop> storeLoadLoops();

} // namespace mlgo
