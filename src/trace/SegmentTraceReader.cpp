/// \file
/// Reading .bbtrace files (format in SegmentTrace.h) with zstd streaming.
#include "SegmentTrace.h"
#include "SegmentTraceFormat.h"
#include "support/ByteCursor.h"
#include "support/Error.h"
#include "support/InputFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Endian.h"
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <zstd.h>

namespace mlgo {

namespace {
using F = BbtraceFormat;
} // namespace

/// Where the compressed bytes come from: a file, read a block at a time, or bytes in
/// memory, handed to zstd in place.
struct SegmentTraceReader::Impl {
  ZSTD_DCtx *Ctx = ZSTD_createDCtx();
  std::FILE *File = nullptr;
  llvm::StringRef Memory; ///< when File is null
  uint64_t MemoryPos = 0;
  std::vector<char> In; ///< a file's block
  /// Decompressed output, reused: need() runs once per record.
  std::vector<char> Out = std::vector<char>(ZSTD_DStreamOutSize());
  ZSTD_inBuffer InBuf{nullptr, 0, 0};
  bool FileEnded = false;
  ~Impl() {
    ZSTD_freeDCtx(Ctx);
    if (File)
      std::fclose(File);
  }
  /// Copies the \p N bytes at \p Offset to \p To.
  bool readAt(uint64_t Offset, size_t N, void *To) {
    if (File)
      return std::fseek(File, Offset, SEEK_SET) == 0 && std::fread(To, 1, N, File) == N;
    if (Offset > Memory.size() || N > Memory.size() - Offset)
      return false;
    if (N) // an empty section's vector has no data() to copy to
      std::memcpy(To, Memory.data() + Offset, N);
    return true;
  }
  /// Makes the next compressed bytes from \p Offset on read sequentially.
  bool seek(uint64_t Offset) {
    MemoryPos = std::min<uint64_t>(Offset, Memory.size());
    return !File || std::fseek(File, Offset, SEEK_SET) == 0;
  }
  /// The next at most \p Max compressed bytes, in InBuf; how many.
  size_t fill(uint64_t Max) {
    if (!File) {
      size_t Got = std::min<uint64_t>(Max, Memory.size() - MemoryPos);
      InBuf = {Memory.data() + MemoryPos, Got, 0};
      MemoryPos += Got;
      return Got;
    }
    if (In.empty())
      In.resize(ZSTD_DStreamInSize());
    size_t Got = std::fread(In.data(), 1, std::min<uint64_t>(In.size(), Max), File);
    InBuf = {In.data(), Got, 0};
    return Got;
  }
};

SegmentTraceReader::~SegmentTraceReader() = default;

llvm::Error SegmentTraceReader::corrupt(const llvm::Twine &Why) const {
  return inputError(Path, "{}", Why.str());
}

llvm::Error SegmentTraceReader::need(size_t N) {
  if (Pos > F::FlushSize) {
    Buf.erase(Buf.begin(), Buf.begin() + Pos);
    Pos = 0;
  }
  std::vector<char> &Out = I->Out;
  while (Buf.size() - Pos < N) {
    if (I->InBuf.pos == I->InBuf.size) {
      if (I->FileEnded)
        return llvm::Error::success();
      size_t Got = I->fill(FrameBytesLeft);
      FrameBytesLeft -= Got;
      if (Got == 0) {
        I->FileEnded = true;
        continue;
      }
    }
    ZSTD_outBuffer O{Out.data(), Out.size(), 0};
    size_t R = ZSTD_decompressStream(I->Ctx, &O, &I->InBuf);
    if (ZSTD_isError(R))
      return corrupt(llvm::Twine("corrupt compressed data: ") + ZSTD_getErrorName(R));
    Buf.insert(Buf.end(), Out.data(), Out.data() + O.pos);
  }
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<SegmentTraceReader>>
SegmentTraceReader::open(llvm::StringRef Path) {
  // Sizes come from the file: a device or a FIFO has none to bound them by.
  auto FileSize = regularFileSize(Path);
  if (!FileSize)
    return FileSize.takeError();
  auto I = std::make_unique<Impl>();
  I->File = std::fopen(Path.str().c_str(), "rb");
  if (!I->File)
    return inputError(Path, "cannot read: {}", std::strerror(errno));
  return openSource(Path, *FileSize, std::move(I));
}

llvm::Expected<std::unique_ptr<SegmentTraceReader>>
SegmentTraceReader::openBytes(llvm::StringRef Name, llvm::StringRef Bytes) {
  auto I = std::make_unique<Impl>();
  I->Memory = Bytes;
  return openSource(Name, Bytes.size(), std::move(I));
}

llvm::Expected<std::unique_ptr<SegmentTraceReader>>
SegmentTraceReader::openSource(llvm::StringRef Path, uint64_t FileSize,
                               std::unique_ptr<Impl> Source) {
  std::unique_ptr<SegmentTraceReader> R(new SegmentTraceReader());
  R->I = std::move(Source);
  R->Path = Path.str();
  R->KeepBudget = FileSize * F::MaxExpansion;
  R->MaxThreads = F::MaxThreads + FileSize / F::FileBytesPerThread;
  ZSTD_DCtx_setParameter(R->I->Ctx, ZSTD_d_windowLogMax, F::MaxWindowLog);
  char Start[12];
  if (!R->I->readAt(0, sizeof(Start), Start) ||
      std::memcmp(Start, F::Magic, sizeof(F::Magic)) != 0)
    return inputError(Path, "not a .bbtrace file");
  R->Version = llvm::support::endian::read32le(Start + 8);
  if (R->Version < SegmentTraceWriter::Version ||
      R->Version > SegmentTraceWriter::VersionWithLoads)
    return inputError(Path, ".bbtrace version {}, this mlgo-ra reads versions {} to {}",
                      R->Version, SegmentTraceWriter::Version,
                      SegmentTraceWriter::VersionWithLoads);
  R->FrameBytesLeft = FileSize - sizeof(Start);
  if (R->hasLoadDependences())
    if (llvm::Error E = R->readLoadDependences(FileSize))
      return E;
  if (!R->I->seek(sizeof(Start)))
    return inputError(Path, "cannot read: {}", std::strerror(errno));

  if (llvm::Error E = R->need(10))
    return E;
  ByteCursor Length{R->Buf.data(), R->Buf.data() + R->Buf.size()};
  uint64_t HeaderSize = Length.varint();
  size_t HeaderStart = Length.P - R->Buf.data();
  if (Length.Short || HeaderSize > (1u << 30))
    return R->corrupt("truncated .bbtrace header");
  if (llvm::Error E = R->keep(HeaderSize, "a header"))
    return E;
  if (llvm::Error E = R->need(HeaderStart + HeaderSize))
    return E;
  if (R->Buf.size() < HeaderStart + HeaderSize)
    return R->corrupt("truncated .bbtrace header");
  ByteCursor C{R->Buf.data() + HeaderStart, R->Buf.data() + HeaderStart + HeaderSize};
  SegmentTraceHeader &H = R->Header;
  H.Identity = C.string(C.varint());
  H.BinaryPath = C.string(C.varint());
  if (R->hasLoadDependences()) {
    R->Flags = C.varint();
    // A bit this reader does not know changes what the trace means: refuse it rather
    // than replay it as something else.
    if (R->Flags & ~F::KnownFlags)
      return R->corrupt(fmt::format("unknown .bbtrace header flags {:#x}",
                                    R->Flags & ~F::KnownFlags));
  }
  // Each count is checked against the bytes left (each item takes one at least) before
  // anything is stored, and everything stored is charged to the header's bytes above.
  auto Fits = [&C](uint64_t Count) { return Count <= uint64_t(C.E - C.P); };
  uint64_t NumFunctions = C.varint();
  if (!Fits(NumFunctions) || NumFunctions > UINT32_MAX)
    return R->corrupt("malformed .bbtrace header");
  for (uint64_t F = 0; F < NumFunctions && !C.Short; ++F) {
    TracedFunction TF{C.string(C.varint()), {}};
    uint64_t NumBlocks = C.varint();
    if (!Fits(NumBlocks) || NumBlocks > UINT32_MAX)
      return R->corrupt("malformed .bbtrace header");
    for (uint64_t B = 0; B < NumBlocks && !C.Short; ++B) {
      TracedBlock TB{static_cast<uint32_t>(C.varint()), {}};
      uint64_t NumSegments = C.varint();
      if (!Fits(NumSegments) || NumSegments > UINT32_MAX)
        return R->corrupt("malformed .bbtrace header");
      for (uint64_t S = 0; S < NumSegments && !C.Short; ++S) {
        TB.SegmentInstructions.push_back(C.varint());
        R->Segments.push_back({static_cast<uint32_t>(F), static_cast<uint32_t>(B),
                               static_cast<uint32_t>(S), TB.SegmentInstructions.back()});
      }
      TF.Blocks.push_back(std::move(TB));
    }
    H.Functions.push_back(std::move(TF));
  }
  if (C.Short || C.P != C.E)
    return R->corrupt("malformed .bbtrace header");
  if (!R->Loads.empty() && R->Loads.back().Segment >= R->Segments.size())
    return R->corrupt("load dependences of a segment the header does not define");
  R->Pos = HeaderStart + HeaderSize;
  return R;
}

llvm::Error SegmentTraceReader::readLoadDependences(uint64_t FileSize) {
  constexpr uint64_t Start = 12, Trailer = 16;
  char End[Trailer];
  if (FileSize < Start + Trailer || !I->readAt(FileSize - Trailer, Trailer, End) ||
      std::memcmp(End + 8, F::LoadsMagic, sizeof(F::LoadsMagic)) != 0)
    return corrupt("truncated: no load dependences at the end of a version 3 trace");
  uint64_t Size = llvm::support::endian::read64le(End);
  if (Size > FileSize - Start - Trailer)
    return corrupt("malformed load dependences");
  std::vector<uint8_t> Section(Size);
  if (!I->readAt(FileSize - Trailer - Size, Size, Section.data()))
    return corrupt(fmt::format("cannot read the load dependences: {}", std::strerror(errno)));
  FrameBytesLeft = FileSize - Start - Trailer - Size;
  // Each load takes two bytes of the section at least: memory stays within its size.
  ByteCursor C{Section.data(), Section.data() + Section.size()};
  uint64_t Count = C.varint();
  if (Count > Size)
    return corrupt("malformed load dependences");
  for (uint64_t K = 0; K < Count && !C.Short; ++K) {
    SegmentLoads S{static_cast<uint32_t>(C.varint()), {}};
    uint64_t NumLoads = C.varint();
    if (NumLoads > uint64_t(C.E - C.P) || NumLoads > F::MaxSegmentLoads ||
        (!Loads.empty() && S.Segment <= Loads.back().Segment))
      return corrupt("malformed load dependences");
    S.Loads.resize(NumLoads);
    for (LoadCounts &L : S.Loads) {
      L.Executions = C.varint();
      L.Dependent = C.varint();
      if (L.Dependent > L.Executions)
        return corrupt("malformed load dependences");
    }
    Loads.push_back(std::move(S));
  }
  if (C.Short || C.P != C.E)
    return corrupt("malformed load dependences");
  return llvm::Error::success();
}

llvm::Error SegmentTraceReader::keep(uint64_t Bytes, llvm::StringRef What) {
  if (Bytes <= KeepBudget) {
    KeepBudget -= Bytes;
    return llvm::Error::success();
  }
  return corrupt(fmt::format("{} larger than {} times the file's size: corrupt, or not "
                             "written by mlgo-ra",
                             What, F::MaxExpansion));
}

llvm::Error SegmentTraceReader::truncated() const {
  return corrupt("truncated: no end record (was the recording interrupted?)");
}

llvm::Error SegmentTraceReader::readBytes(ByteCursor &C, size_t N, std::vector<uint8_t> &Out) {
  size_t At = C.P - Buf.data();
  if (llvm::Error Err = need(At - Pos + N))
    return Err;
  C = {Buf.data() + At, Buf.data() + Buf.size()};
  C.bytes(N, Out);
  return C.Short ? truncated() : llvm::Error::success();
}

llvm::Error SegmentTraceReader::readChunk(ByteCursor &C) {
  CodeChunk Chunk;
  uint64_t Id = C.varint(), Module = C.varint();
  Chunk.Address = C.varint();
  uint64_t NumInstructions = C.varint();
  if (C.Short)
    return truncated();
  if (Id != Chunks.size() || Module > (1u << 20) || NumInstructions == 0 ||
      NumInstructions > 4096)
    return corrupt(fmt::format("malformed code chunk record (chunk {})", Chunks.size()));
  if (llvm::Error Err = readBytes(C, NumInstructions, Chunk.InstrLengths))
    return Err;
  if (llvm::is_contained(Chunk.InstrLengths, 0))
    return corrupt(fmt::format("malformed code chunk record (chunk {})", Chunks.size()));
  size_t Size = 0;
  for (uint8_t Length : Chunk.InstrLengths)
    Size += Length;
  if (llvm::Error Err = keep(sizeof(CodeChunk) + NumInstructions + Size, "code chunks"))
    return Err;
  if (llvm::Error Err = readBytes(C, Size, Chunk.Bytes))
    return Err;
  Chunk.Id = Id;
  Chunk.Module = Module;
  Chunks.push_back(std::move(Chunk));
  return llvm::Error::success();
}

std::string SegmentTraceReader::moduleName(uint32_t Id) const {
  if (Id < Modules.size() && !Modules[Id].empty())
    return Modules[Id];
  return Id ? "module " + std::to_string(Id) : "(no module)";
}

llvm::Expected<bool> SegmentTraceReader::next(uint32_t &Thread, SegmentEvent &E) {
  for (;;) {
    if (Ended)
      return false;
    // Every record but a module's and a chunk's fits in 64 bytes; those two ask for the
    // rest below.
    if (llvm::Error Err = need(64))
      return Err;
    if (nextBuffered(Thread, E))
      return true;
    ByteCursor C{Buf.data() + Pos, Buf.data() + Buf.size()};
    uint64_t Tag = C.varint();
    if (C.Short)
      return truncated();
    switch (Tag) {
    case F::TagEnd: {
      uint64_t Total = C.varint(), Count = C.varint();
      if (C.Short)
        return corrupt("truncated end record");
      if (Total != Instructions || Count != Events)
        return corrupt(fmt::format("end record counts {} instructions in {} events, "
                                     "the trace holds {} in {}",
                                     Total, Count, Instructions, Events));
      Ended = true;
      Pos = C.P - Buf.data();
      return false;
    }
    case F::TagThread:
      // The writer starts a thread's run with the run's first event: records that are
      // not events would otherwise let a few KB of zstd make the reader work for minutes.
      if (ThreadPending)
        return corrupt("a thread record without an event after it");
      ThreadPending = true;
      ThreadId = C.varint();
      if (Threads.insert(ThreadId).second && Threads.size() > MaxThreads)
        return corrupt(fmt::format("more than {} threads, more than the file's size "
                                   "allows: corrupt, or not written by mlgo-ra",
                                   MaxThreads));
      break;
    case F::TagModule: {
      uint64_t Id = C.varint(), Length = C.varint();
      if (C.Short || Id > (1u << 20) || Length > 4096)
        return corrupt("malformed module record");
      // The writer names each module once. Names given again would cost no memory, and
      // would repeat without end as thread records could.
      if (Id < DefinedModules.size() && DefinedModules[Id])
        return corrupt(fmt::format("module {} is defined twice", Id));
      uint64_t NewSlots = Id < Modules.size() ? 0 : Id + 1 - Modules.size();
      if (llvm::Error Err = keep(Length + NewSlots * sizeof(std::string), "module records"))
        return Err;
      std::vector<uint8_t> Path;
      if (llvm::Error Err = readBytes(C, Length, Path))
        return Err;
      if (Modules.size() <= Id) {
        Modules.resize(Id + 1);
        DefinedModules.resize(Id + 1);
      }
      Modules[Id].assign(Path.begin(), Path.end());
      DefinedModules[Id] = true;
      break;
    }
    case F::TagChunk:
      if (!keepsUnmappedCode())
        return corrupt(fmt::format("unknown record tag {}", Tag));
      if (llvm::Error Err = readChunk(C))
        return Err;
      break;
    case F::TagUnmappedCode: {
      uint64_t Chunk = C.varint(), Count = C.varint();
      if (C.Short)
        return truncated();
      if (!keepsUnmappedCode() || Chunk >= Chunks.size() || Count == 0 ||
          Count > Chunks[Chunk].numInstructions())
        return corrupt(fmt::format("unmapped code event of {} instructions in chunk {}, "
                                   "which {}",
                                   Count, Chunk,
                                   Chunk < Chunks.size()
                                       ? fmt::format("has {}", Chunks[Chunk].numInstructions())
                                       : std::string("is not defined before it")));
      E = {SegmentEvent::UnmappedCode, static_cast<uint32_t>(Chunk), 0, Count};
      return event(C.P, Thread, E);
    }
    case F::TagSegment:
    case F::TagPartial:
    case F::TagPadding:
    case F::TagUnmapped: {
      E.What = Tag == F::TagSegment   ? SegmentEvent::Segment
               : Tag == F::TagPartial ? SegmentEvent::PartialSegment
               : Tag == F::TagPadding ? SegmentEvent::Padding
                                   : SegmentEvent::Unmapped;
      uint64_t Index = C.varint();
      E.Offset = Tag == F::TagPartial ? C.varint() : 0;
      // A whole segment's instruction count is in the header, not in the record.
      uint64_t Count = Tag == F::TagSegment ? 0 : C.varint();
      if (C.Short)
        return truncated();
      if (Tag != F::TagUnmapped && Index >= Segments.size())
        return corrupt(fmt::format("segment {} is not in the header", Index));
      E.Index = Index;
      E.Count = Tag == F::TagSegment ? Segments[Index].Instructions : Count;
      return event(C.P, Thread, E);
    }
    default:
      return corrupt(fmt::format("unknown record tag {}", Tag));
    }
    if (C.Short)
      return truncated();
    Pos = C.P - Buf.data();
  }
}

} // namespace mlgo
