/// \file
/// The decision kernel (DecisionKernel.inc) compiled into mlgo-ra as mlgo::kernel, and its
/// text, which export copies into the models it generates so that they decide alike.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace mlgo {
namespace kernel {
#include "DecisionKernel.inc"
} // namespace kernel

/// The text of DecisionKernel.inc, for generated sources.
const char *decisionKernelSource();

} // namespace mlgo
