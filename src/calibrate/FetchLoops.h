/// \file
/// The loops calibrate times for the front end: chains of short blocks of code, each
/// entered by a taken jump, placed within a line or across a line boundary.
#pragma once

#include "Calibrate.h"

#include <cstdint>
#include <vector>

namespace mlgo {

/// CPU seconds of the fastest of \p Runs runs of \p Iterations passes of each loop
/// (FetchCycles::Cycles holds seconds a pass; the caller turns them into cycles a
/// block). Empty on a host that is not x86-64.
std::vector<FetchCycles> fetchLoopSeconds(uint64_t Iterations, unsigned Runs);

} // namespace mlgo
