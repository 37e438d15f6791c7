/// \file
/// The .bbtrace file: a recorded segment trace, zstd-compressed and versioned, with the
/// identity and block layout of the binary it was recorded on, so that replay can
/// refuse a trace from another binary and map segments to any variant by name.
///
/// Layout, version 1: "MLGOBBTR", u32 version (little-endian), then one zstd frame
/// holding, as unsigned LEB128 varints:
///   header: its length in bytes, then identity, binary path (each: length, bytes);
///           function count; per function:
///           key (length, bytes), block count; per block: ID, segment count; per segment:
///           instruction count. Segments are numbered in this order from 0.
///   events: a tag, then its fields:
///     0 end        instructions, events (totals, checked by the reader); last record
///     1 thread     thread id (the collector's: Valgrind reuses the id of a thread that
///                  exited); the events that follow are that thread's
///     2 segment    index: all of the segment ran
///     3 partial    index, byte offset, instructions
///     4 padding    index (the segment before the padding), instructions
///     5 unmapped   module id, instructions
///     6 module     module id, path (length, bytes); precedes its first unmapped event
///
/// Version 2 adds unmapped code kept as bytes (trace record --keep-unmapped): a code
/// chunk is defined once, before the first event that runs it, and unmapped code that
/// ran is an event naming its chunk instead of a count:
///     7 chunk          chunk id (0, 1, 2... in order), module id, run-time address,
///                      instruction count n, n instruction lengths (bytes), the code
///     8 unmapped code  chunk id, instructions (1..n, run from the chunk's start)
/// The writer writes version 2 only when asked to keep unmapped code, so every other
/// trace stays byte for byte what version 1 wrote; readers read both.
///
/// Version 3 adds load dependences (trace record records them): the header has a
/// flags varint after the binary path (bit 0: unmapped code is kept, as in version 2),
/// and after the zstd frame comes a section, then its size (u64, little-endian) and
/// "MLGOLDEP": a count of segments, per segment its index (increasing), its count of
/// data loads n and n times (executions, dependent executions), as varints.
#pragma once

#include "CodeChunk.h"
#include "SegmentEvent.h"
#include "SegmentTraceFormat.h"
#include "code/CodeImage.h"
#include "support/ByteCursor.h"

#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

namespace mlgo {

struct TracedBlock {
  uint32_t ID;
  std::vector<uint32_t> SegmentInstructions; ///< per segment, in the recorded binary
};

struct TracedFunction {
  std::string Key; ///< CodeFunction::key()
  std::vector<TracedBlock> Blocks;
};

struct SegmentTraceHeader {
  std::string Identity;
  std::string BinaryPath;
  std::vector<TracedFunction> Functions;
};

/// A data load's executions in a trace (code/DataLoad.h), and how many of them read
/// memory that one of the last 64 stores wrote: a load a core would make wait for the
/// stores before it, where the others go ahead of stores whose addresses are not known.
struct LoadCounts {
  uint64_t Executions = 0, Dependent = 0;
  bool operator==(const LoadCounts &O) const {
    return Executions == O.Executions && Dependent == O.Dependent;
  }
};
/// A segment's data loads in order, in the binary the trace was recorded on.
struct SegmentLoads {
  uint32_t Segment;
  std::vector<LoadCounts> Loads;
};
/// The segments with data loads that ran, by increasing index.
using LoadDependences = std::vector<SegmentLoads>;

/// The header describing \p Image.
SegmentTraceHeader describeImage(const CodeImage &Image);

/// Writes a .bbtrace through a temporary file; the file appears only on finish().
class SegmentTraceWriter : public SegmentSink {
public:
  /// The version without, and the version with, kept unmapped code; the version with
  /// load dependences.
  static constexpr uint32_t Version = 1, VersionWithCode = 2, VersionWithLoads = 3;

  /// \p KeepsUnmappedCode: a trace that takes code chunks. \p KeepsLoadDependences: a
  /// version 3 trace, whose load dependences are set before finish().
  static llvm::Expected<std::unique_ptr<SegmentTraceWriter>>
  create(llvm::StringRef Path, const SegmentTraceHeader &Header,
         bool KeepsUnmappedCode = false, bool KeepsLoadDependences = false);
  ~SegmentTraceWriter() override;

  /// Names a collector module for later unmapped events (written once per id).
  llvm::Error defineModule(uint32_t Id, llvm::StringRef Path);
  llvm::Error onEvent(uint32_t ThreadId, const SegmentEvent &E) override;
  llvm::Error onEvents(uint32_t ThreadId, llvm::ArrayRef<SegmentEvent> Events) override;
  llvm::Error onCodeChunk(const CodeChunk &C) override;
  /// The load dependences a version 3 trace ends with.
  void setLoadDependences(LoadDependences Loads) { this->Loads = std::move(Loads); }
  /// Writes the end record (and the load dependences), closes the file and renames it
  /// into place.
  llvm::Error finish();

  uint64_t instructions() const { return Instructions; }
  uint64_t events() const { return Events; }
  uint64_t codeChunks() const { return NumChunks; }

private:
  SegmentTraceWriter() = default;
  llvm::Error flush(bool End);
  /// Room for \p N more bytes at the end of Pending.
  uint8_t *reserve(size_t N);
  void append(llvm::StringRef Bytes);
  void pushVarint(uint64_t V) { PendingSize = putVarint(reserve(10), V) - Pending.data(); }

  struct Impl;
  std::unique_ptr<Impl> I;
  std::string Path, TempPath;
  /// Uncompressed bytes not yet handed to zstd: the first PendingSize of Pending.
  std::vector<uint8_t> Pending;
  size_t PendingSize = 0;
  uint32_t ThreadId = 0;
  bool HaveThread = false;
  uint64_t Instructions = 0, Events = 0;
  std::vector<bool> DefinedModules;
  bool KeepsUnmappedCode = false, KeepsLoadDependences = false;
  LoadDependences Loads;
  uint32_t NumChunks = 0;
};

/// Reads a .bbtrace incrementally.
class SegmentTraceReader {
public:
  static llvm::Expected<std::unique_ptr<SegmentTraceReader>> open(llvm::StringRef Path);
  /// Reads the .bbtrace in \p Bytes (which must outlive the reader) as open() reads a
  /// file, naming \p Name in errors: for traces already in memory, and for fuzzing.
  static llvm::Expected<std::unique_ptr<SegmentTraceReader>> openBytes(llvm::StringRef Name,
                                                                       llvm::StringRef Bytes);
  ~SegmentTraceReader();

  const std::string &path() const { return Path; }
  const SegmentTraceHeader &header() const { return Header; }
  /// Segment index → (function, block) in header(); instruction count of a segment.
  struct SegmentName {
    uint32_t Function, Block, SegmentInBlock, Instructions;
  };
  const std::vector<SegmentName> &segments() const { return Segments; }
  const std::vector<std::string> &modules() const { return Modules; }
  /// The path of module \p Id, or "module N", or "(no module)" for 0.
  std::string moduleName(uint32_t Id) const;
  /// Whether unmapped code is kept as code chunks (version 2, or 3 that says so).
  bool keepsUnmappedCode() const {
    return Version == SegmentTraceWriter::VersionWithCode || (Flags & BbtraceFormat::FlagCode);
  }
  /// The trace's load dependences (version 3), or none.
  const LoadDependences &loadDependences() const { return Loads; }
  bool hasLoadDependences() const { return Version >= SegmentTraceWriter::VersionWithLoads; }
  /// The code chunks defined so far: each before the first event that runs it.
  const std::vector<CodeChunk> &chunks() const { return Chunks; }

  /// The next event, its thread in \p ThreadId; false after the end record (whose
  /// totals were checked).
  llvm::Expected<bool> next(uint32_t &ThreadId, SegmentEvent &E);

  /// What next() does, inline, when the next record is an event held whole in the
  /// buffer that needs no check but its segment's or chunk's: most records. False:
  /// nothing was read, next() reads the record.
  bool nextBuffered(uint32_t &Thread, SegmentEvent &E) {
    using F = BbtraceFormat;
    if (Ended || Buf.size() - Pos < F::MaxEventBytes)
      return false;
    const uint8_t *P = Buf.data() + Pos;
    uint8_t Tag = *P++; // a tag of more than one byte is not an event's
    uint64_t Index = readVarint(P);
    SegmentEvent Read;
    if (Tag == F::TagSegment) {
      if (Index >= Segments.size())
        return false;
      Read = {SegmentEvent::Segment, uint32_t(Index), 0, Segments[Index].Instructions};
    } else if (Tag == F::TagUnmappedCode) {
      uint64_t Count = readVarint(P);
      if (!keepsUnmappedCode() || Index >= Chunks.size() || Count == 0 ||
          Count > Chunks[Index].numInstructions())
        return false;
      Read = {SegmentEvent::UnmappedCode, uint32_t(Index), 0, Count};
    } else if (Tag == F::TagPartial) {
      uint64_t Offset = readVarint(P), Count = readVarint(P);
      if (Index >= Segments.size())
        return false;
      Read = {SegmentEvent::PartialSegment, uint32_t(Index), uint32_t(Offset), Count};
    } else if (Tag == F::TagPadding || Tag == F::TagUnmapped) {
      uint64_t Count = readVarint(P);
      bool Padding = Tag == F::TagPadding;
      if (Padding && Index >= Segments.size())
        return false;
      Read = {Padding ? SegmentEvent::Padding : SegmentEvent::Unmapped, uint32_t(Index), 0,
              Count};
    } else {
      return false;
    }
    E = Read;
    return event(P, Thread, E);
  }

  uint64_t instructions() const { return Instructions; }

private:
  SegmentTraceReader() = default;
  struct Impl;
  /// What open() and openBytes() share: reads the header from \p Source, \p Size bytes.
  static llvm::Expected<std::unique_ptr<SegmentTraceReader>>
  openSource(llvm::StringRef Path, uint64_t Size, std::unique_ptr<Impl> Source);
  /// Makes at least \p N bytes available, unless the stream ends first.
  llvm::Error need(size_t N);
  llvm::Error corrupt(const llvm::Twine &Why) const;
  llvm::Error truncated() const;
  /// Reads the next \p N bytes of the record at Buf[Pos] from \p C into \p Out, making
  /// them available first (\p C is renewed: Buf may move).
  llvm::Error readBytes(ByteCursor &C, size_t N, std::vector<uint8_t> &Out);
  /// Reads a chunk record's fields from \p C, which starts after its tag at Buf[Pos].
  llvm::Error readChunk(ByteCursor &C);
  /// Charges \p Bytes to what may be kept in memory from the stream (MaxExpansion).
  llvm::Error keep(uint64_t Bytes, llvm::StringRef What);
  /// Counts \p E, whose record ends at \p End, as the thread's next event.
  bool event(const uint8_t *End, uint32_t &Thread, const SegmentEvent &E) {
    Pos = End - Buf.data();
    Thread = ThreadId;
    ThreadPending = false;
    Instructions += E.Count;
    ++Events;
    return true;
  }

  std::unique_ptr<Impl> I;
  std::string Path;
  SegmentTraceHeader Header;
  std::vector<SegmentName> Segments;
  std::vector<std::string> Modules;
  std::vector<bool> DefinedModules;
  std::vector<CodeChunk> Chunks;
  /// Reads the section after the zstd frame of a version 3 trace of \p FileSize bytes;
  /// the frame is then the file's bytes up to it.
  llvm::Error readLoadDependences(uint64_t FileSize);
  uint32_t Version = 0;
  uint64_t Flags = 0;
  LoadDependences Loads;
  /// The compressed bytes not yet read (the frame's, before a version 3 section).
  uint64_t FrameBytesLeft = 0;
  /// What may still be kept in memory from the stream: MaxExpansion times the file.
  uint64_t KeepBudget = 0;
  /// The threads seen so far, and how many the file may name.
  std::unordered_set<uint32_t> Threads;
  uint64_t MaxThreads = 0;
  std::vector<uint8_t> Buf;
  size_t Pos = 0;
  uint32_t ThreadId = 0;
  /// A thread record was read, and no event after it yet.
  bool ThreadPending = false;
  uint64_t Instructions = 0, Events = 0;
  bool Ended = false;
};

/// Reads \p Reader to its end record, calling \p OnEvent(uint32_t ThreadId, const
/// SegmentEvent &E) -> llvm::Error for every event; stops at the first error, the
/// reader's or the callback's. Inline, with the callback: a trace has millions of
/// events, and replay reads each with little work besides.
template <typename OnEventFn>
llvm::Error forEachEvent(SegmentTraceReader &Reader, OnEventFn &&OnEvent) {
  uint32_t Thread;
  SegmentEvent E;
  for (;;) {
    if (!Reader.nextBuffered(Thread, E)) {
      auto More = Reader.next(Thread, E);
      if (!More)
        return More.takeError();
      if (!*More)
        return llvm::Error::success();
    }
    if (llvm::Error Err = OnEvent(Thread, E))
      return Err;
  }
}

} // namespace mlgo
