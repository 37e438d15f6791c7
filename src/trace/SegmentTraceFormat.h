/// \file
/// Constants of the .bbtrace format (SegmentTrace.h) that its writer and reader share.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mlgo {

struct BbtraceFormat {
  static constexpr char Magic[8] = {'M', 'L', 'G', 'O', 'B', 'B', 'T', 'R'};
  /// Uncompressed bytes handed to zstd at once. The flush points do not change the
  /// compressed output, but keep them anyway: a .bbtrace must not change between
  /// versions.
  static constexpr size_t FlushSize = 1 << 20;
  /// Room for the largest event record (a tag and three varints of 32, 32 and 64 bits),
  /// and for a thread record.
  static constexpr size_t MaxEventBytes = 32;

  enum Tag : uint64_t {
    TagEnd = 0,
    TagThread = 1,
    TagSegment = 2,
    TagPartial = 3,
    TagPadding = 4,
    TagUnmapped = 5,
    TagModule = 6,
    TagChunk = 7,
    TagUnmappedCode = 8,
  };
};

} // namespace mlgo
