/// \file
/// Writing .bbtrace files (format in SegmentTrace.h) with zstd streaming.
#include "SegmentTrace.h"
#include "SegmentTraceFormat.h"
#include "support/ByteCursor.h"
#include "support/Error.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <optional>
#include <zstd.h>

namespace mlgo {

namespace {
using F = BbtraceFormat;
} // namespace

namespace {

void appendString(std::string &Out, llvm::StringRef S) {
  appendVarint(Out, S.size());
  Out.append(S.begin(), S.end());
}

/// \p Flags: version 3's, or none before it.
std::string encodeHeader(const SegmentTraceHeader &H, std::optional<uint64_t> Flags) {
  std::string Body;
  appendString(Body, H.Identity);
  appendString(Body, H.BinaryPath);
  if (Flags)
    appendVarint(Body, *Flags);
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

std::string encodeLoadDependences(const LoadDependences &Loads) {
  std::string Out;
  appendVarint(Out, Loads.size());
  for (const SegmentLoads &S : Loads) {
    appendVarint(Out, S.Segment);
    appendVarint(Out, S.Loads.size());
    for (const LoadCounts &L : S.Loads) {
      appendVarint(Out, L.Executions);
      appendVarint(Out, L.Dependent);
    }
  }
  uint64_t Size = llvm::support::endian::byte_swap(uint64_t(Out.size()),
                                                   llvm::endianness::little);
  Out.append(reinterpret_cast<const char *>(&Size), 8);
  Out.append(F::LoadsMagic, sizeof(F::LoadsMagic));
  return Out;
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

struct SegmentTraceWriter::Impl {
  ZSTD_CCtx *Ctx = ZSTD_createCCtx();
  std::unique_ptr<llvm::raw_fd_ostream> File;
  bool Finished = false;
  ~Impl() { ZSTD_freeCCtx(Ctx); }
};

llvm::Expected<std::unique_ptr<SegmentTraceWriter>>
SegmentTraceWriter::create(llvm::StringRef Path, const SegmentTraceHeader &Header,
                           bool KeepsUnmappedCode, bool KeepsLoadDependences) {
  std::unique_ptr<SegmentTraceWriter> W(new SegmentTraceWriter());
  W->I = std::make_unique<Impl>();
  W->KeepsUnmappedCode = KeepsUnmappedCode;
  W->KeepsLoadDependences = KeepsLoadDependences;
  W->Path = Path.str();
  W->TempPath = (Path + ".tmp-" + llvm::Twine(llvm::sys::Process::getProcessId())).str();
  std::error_code EC;
  W->I->File = std::make_unique<llvm::raw_fd_ostream>(W->TempPath, EC);
  if (EC)
    return stageError("{}: cannot create: {}", W->TempPath, EC.message());
  llvm::sys::RemoveFileOnSignal(W->TempPath);
  W->I->File->write(F::Magic, sizeof(F::Magic));
  uint32_t Version = llvm::support::endian::byte_swap(
      KeepsLoadDependences ? VersionWithLoads
      : KeepsUnmappedCode  ? VersionWithCode
                           : SegmentTraceWriter::Version,
      llvm::endianness::little);
  W->I->File->write(reinterpret_cast<const char *>(&Version), 4);
  ZSTD_CCtx_setParameter(W->I->Ctx, ZSTD_c_compressionLevel, 3);
  W->Pending.resize(F::FlushSize + 2 * F::MaxEventBytes);
  std::optional<uint64_t> Flags;
  if (KeepsLoadDependences)
    Flags = KeepsUnmappedCode ? F::FlagCode : 0;
  W->append(encodeHeader(Header, Flags));
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
  pushVarint(F::TagModule);
  pushVarint(Id);
  pushVarint(ModulePath.size());
  append(ModulePath);
  return llvm::Error::success();
}

llvm::Error SegmentTraceWriter::onCodeChunk(const CodeChunk &C) {
  assert(KeepsUnmappedCode && C.Id == NumChunks && "chunks need version 2, in order");
  ++NumChunks;
  pushVarint(F::TagChunk);
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
    *P++ = F::TagSegment;
    return putVarint(P, E.Index);
  case SegmentEvent::PartialSegment:
    *P++ = F::TagPartial;
    P = putVarint(P, E.Index);
    P = putVarint(P, E.Offset);
    return putVarint(P, E.Count);
  case SegmentEvent::Padding:
  case SegmentEvent::Unmapped:
  case SegmentEvent::UnmappedCode:
    *P++ = E.What == SegmentEvent::Padding    ? F::TagPadding
           : E.What == SegmentEvent::Unmapped ? F::TagUnmapped
                                              : F::TagUnmappedCode;
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
  uint8_t *P = reserve(2 * F::MaxEventBytes);
  if (!HaveThread || Thread != ThreadId) {
    *P++ = F::TagThread;
    P = putVarint(P, Thread);
    ThreadId = Thread;
    HaveThread = true;
  }
  // Locals, not members, in the loop: stores into the buffer could alias members.
  uint8_t *FlushAt = Pending.data() + F::FlushSize;
  uint64_t Count = 0;
  for (const SegmentEvent &E : Events) {
    P = encodeEvent(P, E);
    Count += E.Count;
    if (P >= FlushAt) {
      PendingSize = P - Pending.data();
      if (llvm::Error Err = flush(/*End=*/false))
        return Err;
      P = Pending.data();
      FlushAt = P + F::FlushSize;
    }
  }
  PendingSize = P - Pending.data();
  Instructions += Count;
  this->Events += Events.size();
  return llvm::Error::success();
}

llvm::Error SegmentTraceWriter::finish() {
  pushVarint(F::TagEnd);
  pushVarint(Instructions);
  pushVarint(Events);
  if (llvm::Error E = flush(/*End=*/true))
    return E;
  if (KeepsLoadDependences)
    *I->File << encodeLoadDependences(Loads);
  I->File->close();
  if (I->File->has_error())
    return stageError("{}: cannot write: {}", TempPath, I->File->error().message());
  if (std::error_code EC = llvm::sys::fs::rename(TempPath, Path))
    return stageError("{}: cannot rename into place: {}", Path, EC.message());
  llvm::sys::DontRemoveFileOnSignal(TempPath);
  I->Finished = true;
  return llvm::Error::success();
}

} // namespace mlgo
