/// \file
/// The loops calibrate times for the front end: chains of short blocks of code, each
/// entered by a taken jump, placed within a line or across a line boundary.
#pragma once

#include "Calibrate.h"
#include "CpuSeconds.h"

#include <cstdint>
#include <vector>

namespace mlgo {

/// A front-end loop: what it is (FetchCycles::Cycles left 0 for the caller to fill)
/// and its body, a pass of its 16 blocks a count.
struct FetchLoop {
  FetchCycles Loop;
  LoopBody Body;
};

/// The front-end loops. Empty on a host that is not x86-64.
std::vector<FetchLoop> fetchLoops();

/// A loop of the front end's others (Calibrate.h: LineOpsLoop, SplitJumpLoop,
/// WholeJumpLoop; LoopCycles::Cycles left 0) and its body, an iteration a count.
struct FrontEndLoop {
  LoopCycles Loop;
  LoopBody Body;
};

/// Those loops. Empty on a host that is not x86-64.
std::vector<FrontEndLoop> frontEndLoops();

} // namespace mlgo
