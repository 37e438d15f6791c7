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
  /// What a reader keeps in memory from the decompressed stream (the header, module
  /// paths, code chunks) is at most this many times the file's size: zstd can expand a
  /// few KB into GBs of repeated bytes, while the header and the code of a real trace
  /// compress far less than this: zstd -3 shrinks the bundled workload's header 1.5x,
  /// that of 3,000 generated look-alike functions 4.6x. The header takes about 20 bytes
  /// of memory per byte, so a file of N bytes costs at most about 1300 N.
  static constexpr uint64_t MaxExpansion = 64;
  /// Replay simulates each thread on a core of its own (about 45 KB): a trace may name
  /// at most this many threads, plus one per FileBytesPerThread bytes of the file. (A
  /// thread record with one event takes 3 bytes compressed; a real thread's startup
  /// alone takes more than a KB, and Valgrind reuses the ids of exited threads.)
  static constexpr uint64_t MaxThreads = 1024;
  static constexpr uint64_t FileBytesPerThread = 256;
  /// zstd's window: the writer's level 3 uses 2^21 bytes at most; a frame asking for
  /// more than 2^24 was not written by it.
  static constexpr int MaxWindowLog = 24;

  /// Version 3: the header's flags, and the section after the frame.
  static constexpr uint64_t FlagCode = 1;
  /// Every flag this version defines; a reader refuses any other bit.
  static constexpr uint64_t KnownFlags = FlagCode;
  static constexpr char LoadsMagic[8] = {'M', 'L', 'G', 'O', 'L', 'D', 'E', 'P'};
  /// A segment has at most this many data loads (its code is at most this many bytes).
  static constexpr uint64_t MaxSegmentLoads = 1 << 20;

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
