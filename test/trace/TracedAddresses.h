/// \file
/// For tests of other stages that need to know every instruction a trace holds: a
/// .bbtrace derived from a raw collector stream as trace record derives it, with the
/// link-time address of every traced instruction that the segments cover. (The
/// collector stream and the segment builder are trace/'s own; this is their only door.)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mlgo::test {

/// Writes the .bbtrace \p Trace of the raw collector stream \p Raw recorded on
/// \p Binary; returns, instruction by instruction, the link-time address of every
/// traced instruction of the binary that lies in a block or in the padding after one.
std::vector<uint64_t> deriveTraceWithAddresses(const std::string &Raw,
                                               const std::string &Binary,
                                               const std::string &Trace);

} // namespace mlgo::test
