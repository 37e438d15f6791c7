/// \file
/// What holds the flow engine's instructions until they retire.
#pragma once

#include "detail/Ring.h"
#include "replay/flow/FlowSimulator.h"

#include <cstdint>

namespace mlgo {

/// What holds dispatched instructions until they retire: the reorder buffer (by
/// micro-ops) and the load and store queues.
struct FlowSimulator::Retirements {
  /// Every instruction in flight holds an entry, at least one micro-op, so the reorder
  /// buffer's size bounds its ring (one more: an instruction wider than the buffer); a
  /// queue holds at most its size (unbounded queues are not kept).
  Retirements(unsigned ReorderBufferSize, unsigned LoadQueue, unsigned StoreQueue)
      : ReorderBuffer(ReorderBufferSize + 1), Loads(LoadQueue + 1), Stores(StoreQueue + 1) {}
  struct Entry {
    uint64_t Retire;
    unsigned MicroOps;
  };
  Ring<Entry> ReorderBuffer;
  unsigned MicroOps = 0;
  Ring<uint64_t> Loads, Stores;
};

} // namespace mlgo
