/// \file
/// Writing and reading .bbtrace files (format in SegmentTrace.h) with zstd streaming.
#include "SegmentTrace.h"
#include "support/ByteCursor.h"
#include "support/Error.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <zstd.h>

namespace mlgo {
namespace {

constexpr char Magic[8] = {'M', 'L', 'G', 'O', 'B', 'B', 'T', 'R'};
/// Uncompressed bytes handed to zstd at once. The flush points do not change the
/// compressed output, but keep them anyway: a .bbtrace must not change between versions.
constexpr size_t FlushSize = 1 << 20;
/// Room for the largest event record (a tag and three varints of 32, 32 and 64 bits),
/// and for a thread record.
constexpr size_t MaxEventBytes = 32;

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

void appendString(std::string &Out, llvm::StringRef S) {
  appendVarint(Out, S.size());
  Out.append(S.begin(), S.end());
}

std::string encodeHeader(const SegmentTraceHeader &H) {
  std::string Body;
  appendString(Body, H.Identity);
  appendString(Body, H.BinaryPath);
  appendVarint(Body, H.Functions.size());
  for (const TracedFunction &F : H.Functions) {
    appendString(Body, F.Key);
    appendVarint(Body, F.Blocks.size());
    for (const TracedBlock &B : F.Blocks) {
      appendVarint(Body, B.ID);
      appendVarint(Body, B.SegmentInstructions.size());
      for (uint32_t N : B.SegmentInstructions)
        appendVarint(Body, N);
    }
  }
  std::string Out;
  appendVarint(Out, Body.size());
  return Out + Body;
}

} // namespace

SegmentTraceHeader describeImage(const CodeImage &Image) {
  SegmentTraceHeader H;
  H.Identity = Image.identity();
  H.BinaryPath = Image.path();
  for (const CodeFunction &F : Image.functions()) {
    TracedFunction TF{F.key(), {}};
    for (uint32_t B = F.FirstBlock; B < F.FirstBlock + F.NumBlocks; ++B) {
      const CodeBlock &Block = Image.blocks()[B];
      TracedBlock TB{Block.ID, {}};
      for (uint32_t S = Block.FirstSegment; S < Block.FirstSegment + Block.NumSegments; ++S)
        TB.SegmentInstructions.push_back(Image.segments()[S].NumInstructions);
      TF.Blocks.push_back(std::move(TB));
    }
    H.Functions.push_back(std::move(TF));
  }
  return H;
}

// --- Writer ----------------------------------------------------------------------

struct SegmentTraceWriter::Impl {
  ZSTD_CCtx *Ctx = ZSTD_createCCtx();
  std::unique_ptr<llvm::raw_fd_ostream> File;
  bool Finished = false;
  ~Impl() { ZSTD_freeCCtx(Ctx); }
};

llvm::Expected<std::unique_ptr<SegmentTraceWriter>>
SegmentTraceWriter::create(llvm::StringRef Path, const SegmentTraceHeader &Header,
                           bool KeepsUnmappedCode) {
  std::unique_ptr<SegmentTraceWriter> W(new SegmentTraceWriter());
  W->I = std::make_unique<Impl>();
  W->KeepsUnmappedCode = KeepsUnmappedCode;
  W->Path = Path.str();
  W->TempPath = (Path + ".tmp-" + llvm::Twine(llvm::sys::Process::getProcessId())).str();
  std::error_code EC;
  W->I->File = std::make_unique<llvm::raw_fd_ostream>(W->TempPath, EC);
  if (EC)
    return stageError("{}: cannot create: {}", W->TempPath, EC.message());
  llvm::sys::RemoveFileOnSignal(W->TempPath);
  W->I->File->write(Magic, sizeof(Magic));
  uint32_t Version = llvm::support::endian::byte_swap(
      KeepsUnmappedCode ? VersionWithCode : SegmentTraceWriter::Version,
      llvm::endianness::little);
  W->I->File->write(reinterpret_cast<const char *>(&Version), 4);
  ZSTD_CCtx_setParameter(W->I->Ctx, ZSTD_c_compressionLevel, 3);
  W->Pending.resize(FlushSize + 2 * MaxEventBytes);
  W->append(encodeHeader(Header));
  return W;
}

SegmentTraceWriter::~SegmentTraceWriter() {
  if (I && !I->Finished) {
    I->File->close();
    I->File->clear_error();
    llvm::sys::fs::remove(TempPath);
    llvm::sys::DontRemoveFileOnSignal(TempPath);
  }
}

uint8_t *SegmentTraceWriter::reserve(size_t N) {
  if (PendingSize + N > Pending.size())
    Pending.resize(std::max(PendingSize + N, 2 * Pending.size()));
  return Pending.data() + PendingSize;
}

void SegmentTraceWriter::append(llvm::StringRef Bytes) {
  std::copy(Bytes.begin(), Bytes.end(), reserve(Bytes.size()));
  PendingSize += Bytes.size();
}

llvm::Error SegmentTraceWriter::flush(bool End) {
  ZSTD_inBuffer In{Pending.data(), PendingSize, 0};
  std::vector<char> Out(ZSTD_CStreamOutSize());
  for (;;) {
    ZSTD_outBuffer O{Out.data(), Out.size(), 0};
    size_t Left =
        ZSTD_compressStream2(I->Ctx, &O, &In, End ? ZSTD_e_end : ZSTD_e_continue);
    if (ZSTD_isError(Left))
      return stageError("{}: compression failed: {}", Path, ZSTD_getErrorName(Left));
    I->File->write(Out.data(), O.pos);
    if (End ? Left == 0 : In.pos == In.size)
      break;
  }
  PendingSize = 0;
  if (I->File->has_error())
    return stageError("{}: cannot write: {}", TempPath, I->File->error().message());
  return llvm::Error::success();
}

llvm::Error SegmentTraceWriter::defineModule(uint32_t Id, llvm::StringRef ModulePath) {
  if (Id < DefinedModules.size() && DefinedModules[Id])
    return llvm::Error::success();
  if (DefinedModules.size() <= Id)
    DefinedModules.resize(Id + 1);
  DefinedModules[Id] = true;
  pushVarint(TagModule);
  pushVarint(Id);
  pushVarint(ModulePath.size());
  append(ModulePath);
  return llvm::Error::success();
}

llvm::Error SegmentTraceWriter::onCodeChunk(const CodeChunk &C) {
  assert(KeepsUnmappedCode && C.Id == NumChunks && "chunks need version 2, in order");
  ++NumChunks;
  pushVarint(TagChunk);
  pushVarint(C.Id);
  pushVarint(C.Module);
  pushVarint(C.Address);
  pushVarint(C.numInstructions());
  append(llvm::toStringRef(C.InstrLengths));
  append(llvm::toStringRef(C.Bytes));
  return llvm::Error::success();
}

/// Encodes \p E at \p P, which has room for MaxEventBytes.
static uint8_t *encodeEvent(uint8_t *P, const SegmentEvent &E) {
  switch (E.What) {
  case SegmentEvent::Segment:
    *P++ = TagSegment;
    return putVarint(P, E.Index);
  case SegmentEvent::PartialSegment:
    *P++ = TagPartial;
    P = putVarint(P, E.Index);
    P = putVarint(P, E.Offset);
    return putVarint(P, E.Count);
  case SegmentEvent::Padding:
  case SegmentEvent::Unmapped:
  case SegmentEvent::UnmappedCode:
    *P++ = E.What == SegmentEvent::Padding    ? TagPadding
           : E.What == SegmentEvent::Unmapped ? TagUnmapped
                                              : TagUnmappedCode;
    P = putVarint(P, E.Index);
    return putVarint(P, E.Count);
  }
  return P;
}

llvm::Error SegmentTraceWriter::onEvent(uint32_t Thread, const SegmentEvent &E) {
  return onEvents(Thread, E);
}

llvm::Error SegmentTraceWriter::onEvents(uint32_t Thread,
                                         llvm::ArrayRef<SegmentEvent> Events) {
  if (Events.empty())
    return llvm::Error::success();
  // Room for a thread record and the first event. After that, Pending has room for one
  // more event as long as fewer than FlushSize bytes are pending.
  uint8_t *P = reserve(2 * MaxEventBytes);
  if (!HaveThread || Thread != ThreadId) {
    *P++ = TagThread;
    P = putVarint(P, Thread);
    ThreadId = Thread;
    HaveThread = true;
  }
  // Locals, not members, in the loop: stores into the buffer could alias members.
  uint8_t *FlushAt = Pending.data() + FlushSize;
  uint64_t Count = 0;
  for (const SegmentEvent &E : Events) {
    P = encodeEvent(P, E);
    Count += E.Count;
    if (P >= FlushAt) {
      PendingSize = P - Pending.data();
      if (llvm::Error Err = flush(/*End=*/false))
        return Err;
      P = Pending.data();
      FlushAt = P + FlushSize;
    }
  }
  PendingSize = P - Pending.data();
  Instructions += Count;
  this->Events += Events.size();
  return llvm::Error::success();
}

llvm::Error SegmentTraceWriter::finish() {
  pushVarint(TagEnd);
  pushVarint(Instructions);
  pushVarint(Events);
  if (llvm::Error E = flush(/*End=*/true))
    return E;
  I->File->close();
  if (I->File->has_error())
    return stageError("{}: cannot write: {}", TempPath, I->File->error().message());
  if (std::error_code EC = llvm::sys::fs::rename(TempPath, Path))
    return stageError("{}: cannot rename into place: {}", Path, EC.message());
  llvm::sys::DontRemoveFileOnSignal(TempPath);
  I->Finished = true;
  return llvm::Error::success();
}

// --- Reader ----------------------------------------------------------------------

struct SegmentTraceReader::Impl {
  ZSTD_DCtx *Ctx = ZSTD_createDCtx();
  std::FILE *File = nullptr;
  std::vector<char> In = std::vector<char>(ZSTD_DStreamInSize());
  /// Decompressed output, reused: need() runs once per record.
  std::vector<char> Out = std::vector<char>(ZSTD_DStreamOutSize());
  ZSTD_inBuffer InBuf{nullptr, 0, 0};
  bool FileEnded = false;
  ~Impl() {
    ZSTD_freeDCtx(Ctx);
    if (File)
      std::fclose(File);
  }
};

SegmentTraceReader::~SegmentTraceReader() = default;

llvm::Error SegmentTraceReader::corrupt(const llvm::Twine &Why) const {
  return inputError(Path, "{}", Why.str());
}

llvm::Error SegmentTraceReader::need(size_t N) {
  if (Pos > FlushSize) {
    Buf.erase(Buf.begin(), Buf.begin() + Pos);
    Pos = 0;
  }
  std::vector<char> &Out = I->Out;
  while (Buf.size() - Pos < N) {
    if (I->InBuf.pos == I->InBuf.size) {
      if (I->FileEnded)
        return llvm::Error::success();
      size_t Got = std::fread(I->In.data(), 1, I->In.size(), I->File);
      if (Got == 0) {
        I->FileEnded = true;
        continue;
      }
      I->InBuf = {I->In.data(), Got, 0};
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
  std::unique_ptr<SegmentTraceReader> R(new SegmentTraceReader());
  R->I = std::make_unique<Impl>();
  R->Path = Path.str();
  R->I->File = std::fopen(R->Path.c_str(), "rb");
  if (!R->I->File)
    return inputError(Path, "cannot read: {}", std::strerror(errno));
  char Start[12];
  if (std::fread(Start, 1, sizeof(Start), R->I->File) != sizeof(Start) ||
      std::memcmp(Start, Magic, sizeof(Magic)) != 0)
    return inputError(Path, "not a .bbtrace file");
  R->Version = llvm::support::endian::read32le(Start + 8);
  if (R->Version != SegmentTraceWriter::Version &&
      R->Version != SegmentTraceWriter::VersionWithCode)
    return inputError(Path, ".bbtrace version {}, this mlgo-ra reads versions {} and {}",
                      R->Version, SegmentTraceWriter::Version,
                      SegmentTraceWriter::VersionWithCode);

  if (llvm::Error E = R->need(10))
    return E;
  ByteCursor Length{R->Buf.data(), R->Buf.data() + R->Buf.size()};
  uint64_t HeaderSize = Length.varint();
  size_t HeaderStart = Length.P - R->Buf.data();
  if (Length.Short || HeaderSize > (1u << 30))
    return R->corrupt("truncated .bbtrace header");
  if (llvm::Error E = R->need(HeaderStart + HeaderSize))
    return E;
  if (R->Buf.size() < HeaderStart + HeaderSize)
    return R->corrupt("truncated .bbtrace header");
  ByteCursor C{R->Buf.data() + HeaderStart, R->Buf.data() + HeaderStart + HeaderSize};
  SegmentTraceHeader &H = R->Header;
  H.Identity = C.string(C.varint());
  H.BinaryPath = C.string(C.varint());
  uint64_t NumFunctions = C.varint();
  for (uint64_t F = 0; F < NumFunctions && !C.Short; ++F) {
    TracedFunction TF{C.string(C.varint()), {}};
    uint64_t NumBlocks = C.varint();
    for (uint64_t B = 0; B < NumBlocks && !C.Short; ++B) {
      TracedBlock TB{static_cast<uint32_t>(C.varint()), {}};
      uint64_t NumSegments = C.varint();
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
  R->Pos = HeaderStart + HeaderSize;
  return R;
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

bool SegmentTraceReader::event(const ByteCursor &C, uint32_t &Thread, const SegmentEvent &E) {
  Pos = C.P - Buf.data();
  Thread = ThreadId;
  Instructions += E.Count;
  ++Events;
  return true;
}

llvm::Expected<bool> SegmentTraceReader::next(uint32_t &Thread, SegmentEvent &E) {
  for (;;) {
    if (Ended)
      return false;
    // Every record but a module's and a chunk's fits in 64 bytes; those two ask for the
    // rest below.
    if (llvm::Error Err = need(64))
      return Err;
    ByteCursor C{Buf.data() + Pos, Buf.data() + Buf.size()};
    uint64_t Tag = C.varint();
    if (C.Short)
      return truncated();
    switch (Tag) {
    case TagEnd: {
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
    case TagThread:
      ThreadId = C.varint();
      break;
    case TagModule: {
      uint64_t Id = C.varint(), Length = C.varint();
      if (C.Short || Id > (1u << 20) || Length > 4096)
        return corrupt("malformed module record");
      std::vector<uint8_t> Path;
      if (llvm::Error Err = readBytes(C, Length, Path))
        return Err;
      if (Modules.size() <= Id)
        Modules.resize(Id + 1);
      Modules[Id].assign(Path.begin(), Path.end());
      break;
    }
    case TagChunk:
      if (!keepsUnmappedCode())
        return corrupt(fmt::format("unknown record tag {}", Tag));
      if (llvm::Error Err = readChunk(C))
        return Err;
      break;
    case TagUnmappedCode: {
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
      return event(C, Thread, E);
    }
    case TagSegment:
    case TagPartial:
    case TagPadding:
    case TagUnmapped: {
      E.What = Tag == TagSegment   ? SegmentEvent::Segment
               : Tag == TagPartial ? SegmentEvent::PartialSegment
               : Tag == TagPadding ? SegmentEvent::Padding
                                   : SegmentEvent::Unmapped;
      uint64_t Index = C.varint();
      E.Offset = Tag == TagPartial ? C.varint() : 0;
      // A whole segment's instruction count is in the header, not in the record.
      uint64_t Count = Tag == TagSegment ? 0 : C.varint();
      if (C.Short)
        return truncated();
      if (Tag != TagUnmapped && Index >= Segments.size())
        return corrupt(fmt::format("segment {} is not in the header", Index));
      E.Index = Index;
      E.Count = Tag == TagSegment ? Segments[Index].Instructions : Count;
      return event(C, Thread, E);
    }
    default:
      return corrupt(fmt::format("unknown record tag {}", Tag));
    }
    if (C.Short)
      return truncated();
    Pos = C.P - Buf.data();
  }
}

llvm::Error
forEachEvent(SegmentTraceReader &Reader,
             llvm::function_ref<llvm::Error(uint32_t ThreadId, const SegmentEvent &E)> OnEvent) {
  uint32_t Thread;
  SegmentEvent E;
  for (;;) {
    auto More = Reader.next(Thread, E);
    if (!More)
      return More.takeError();
    if (!*More)
      return llvm::Error::success();
    if (llvm::Error Err = OnEvent(Thread, E))
      return Err;
  }
}

} // namespace mlgo
