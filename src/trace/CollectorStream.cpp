/// \file
/// Decoder for the mlgotrace stream (format: src/trace/valgrind/README.md). Records
/// may straddle read() chunks: a record that is cut off is re-parsed from its start
/// once more bytes have arrived.
#include "CollectorStream.h"
#include "support/ByteCursor.h"

#include "llvm/Support/Errc.h"
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

using namespace llvm;

namespace mlgo {

namespace {

constexpr char Magic[8] = {'M', 'L', 'G', 'O', 'T', 'R', 'C', 'E'};
constexpr size_t HeaderSize = 16;
constexpr size_t MinBuffer = 64 * 1024;

enum Tag : uint64_t {
  TagEnd = 0,
  TagModule = 1,
  TagSuperblock = 2,
  TagThread = 3,
  TagLoad = 4,
  FirstRunTag = 16,
};

using Cursor = ByteCursor;

uint32_t readLE32(const uint8_t *P) {
  return uint32_t(P[0]) | uint32_t(P[1]) << 8 | uint32_t(P[2]) << 16 |
         uint32_t(P[3]) << 24;
}

} // namespace

CollectorStreamListener::~CollectorStreamListener() = default;
Error CollectorStreamListener::onModule(const CollectorModule &) {
  return Error::success();
}
Error CollectorStreamListener::onSuperblock(const CollectorSuperblock &, uint32_t) {
  return Error::success();
}
void CollectorStreamListener::onThreadSwitch(uint32_t) {}
llvm::Error CollectorStreamListener::onLoadSite(const CollectorLoadSite &) {
  return llvm::Error::success();
}
Error CollectorStreamListener::onRuns(const CollectorStreamReader &Reader,
                                      uint32_t ThreadId, ArrayRef<RepeatedRun> Runs) {
  for (const RepeatedRun &R : Runs) {
    CollectorRun Run = Reader.runThrough(ThreadId, R.ExitId);
    for (uint32_t I = 0; I < R.Repeat; ++I)
      if (Error E = onRun(Run))
        return E;
  }
  return Error::success();
}

Expected<std::unique_ptr<CollectorStreamReader>>
CollectorStreamReader::open(StringRef Path) {
  std::string P = Path.str();
  int Fd;
  do
    Fd = ::open(P.c_str(), O_RDONLY | O_CLOEXEC);
  while (Fd < 0 && errno == EINTR);
  if (Fd < 0)
    return createStringError(std::error_code(errno, std::generic_category()),
                             "%s: cannot open: %s", P.c_str(), std::strerror(errno));
#ifdef F_SETPIPE_SZ
  // A FIFO's default 64 KiB buffer makes the tool block on every other write;
  // 1 MiB matches its write size. Best effort: the limit is /proc/sys/fs/pipe-max-size.
  (void)::fcntl(Fd, F_SETPIPE_SZ, 1 << 20);
#endif
  return std::make_unique<CollectorStreamReader>(Fd, P, /*OwnsFd=*/true);
}

CollectorStreamReader::CollectorStreamReader(int Fd, std::string Name, bool OwnsFd,
                                             size_t ReadSize)
    : Fd(Fd), Name(std::move(Name)), OwnsFd(OwnsFd),
      ReadSize(std::max<size_t>(ReadSize, 1)), Buf(std::max(this->ReadSize, MinBuffer)) {}

CollectorStreamReader::~CollectorStreamReader() {
  if (OwnsFd && Fd >= 0)
    ::close(Fd);
}

const CollectorModule *CollectorStreamReader::module(uint32_t Id) const {
  return Id >= 1 && Id <= Modules.size() ? &Modules[Id - 1] : nullptr;
}

const CollectorModule *CollectorStreamReader::mainExecutable() const {
  for (const CollectorModule &M : Modules)
    if (M.IsMainExecutable)
      return &M;
  return nullptr;
}

Error CollectorStreamReader::error(uint64_t Offset, const Twine &Message) const {
  return createStringError(errc::invalid_argument, "%s: offset %llu: %s",
                           Name.c_str(), (unsigned long long)Offset,
                           Message.str().c_str());
}

Expected<size_t> CollectorStreamReader::fill() {
  // Keep the unread tail; grow only if one record fills the whole buffer.
  if (Pos > 0) {
    std::memmove(Buf.data(), Buf.data() + Pos, End - Pos);
    BufOffset += Pos;
    End -= Pos;
    Pos = 0;
  }
  if (End == Buf.size())
    Buf.resize(Buf.size() * 2);
  ssize_t N;
  do
    N = ::read(Fd, Buf.data() + End, std::min(Buf.size() - End, ReadSize));
  while (N < 0 && errno == EINTR);
  if (N < 0)
    return createStringError(std::error_code(errno, std::generic_category()),
                             "%s: read failed: %s", Name.c_str(), std::strerror(errno));
  if (N == 0)
    Eof = true;
  End += N;
  return size_t(N);
}

Error CollectorStreamReader::readHeader() {
  while (End - Pos < HeaderSize && !Eof)
    if (Expected<size_t> N = fill(); !N)
      return N.takeError();
  if (End - Pos < HeaderSize)
    return createStringError(errc::invalid_argument,
                             "%s: truncated collector stream: %zu of %zu header bytes",
                             Name.c_str(), End - Pos, HeaderSize);
  const uint8_t *H = Buf.data() + Pos;
  if (std::memcmp(H, Magic, sizeof(Magic)) != 0)
    return createStringError(errc::invalid_argument,
                             "%s: not a collector stream (bad magic)", Name.c_str());
  uint32_t V = readLE32(H + 8);
  if (V != 1 && V != Version)
    return createStringError(errc::invalid_argument,
                             "%s: collector stream version %u, this reader reads "
                             "versions 1 and %u",
                             Name.c_str(), V, Version);
  Pid = readLE32(H + 12);
  Pos += HeaderSize;
  HeaderRead = true;
  return Error::success();
}

Expected<const uint8_t *>
CollectorStreamReader::decodeRuns(const uint8_t *P, const uint8_t *End,
                                  CollectorStreamListener &L) {
  // Members are copied to locals: the compiler cannot keep them in registers across
  // the stores into Batch.
  const uint8_t *Counts = ExitInstructions.data();
  const uint32_t NumExits = ExitInstructions.size();
  constexpr size_t BatchSize = 256;
  RepeatedRun Batch[BatchSize];
  for (;;) {
    size_t N = 0;
    uint64_t Instructions = 0, Runs = 0;
    uint32_t Last = UINT32_MAX; // the exit of Batch[N - 1]
    while (P != End) {
      uint32_t T = P[0], Length = 1;
      if (T >= 0x80) {
        if (End - P < 2 || P[1] >= 0x80)
          break;
        T = (T & 0x7f) | uint32_t(P[1]) << 7;
        Length = 2;
      }
      if (T < FirstRunTag || T - FirstRunTag >= NumExits)
        break;
      uint32_t ExitId = T - FirstRunTag;
      Instructions += Counts[ExitId];
      ++Runs;
      P += Length;
      if (ExitId == Last && Batch[N - 1].Repeat < UINT32_MAX) {
        ++Batch[N - 1].Repeat;
        continue;
      }
      Batch[N++] = {ExitId, 1};
      Last = ExitId;
      if (N == BatchSize)
        break;
    }
    if (N == 0)
      return P;
    NumInstructions += Instructions;
    NumRuns += Runs;
    if (Error E = L.onRuns(*this, ThreadId, ArrayRef<RepeatedRun>(Batch, N)))
      return E;
    if (N < BatchSize)
      return P;
  }
}

Expected<CollectorStreamReader::Parse>
CollectorStreamReader::parseRecords(CollectorStreamListener &L) {
  Cursor C{Buf.data() + Pos, Buf.data() + End};
  auto Offset = [&](const uint8_t *P) { return BufOffset + (P - Buf.data()); };
  while (C.P != C.E && !Finished) {
    // The hot path: runs, one record per superblock execution.
    if (ThreadId != 0) {
      Expected<const uint8_t *> P = decodeRuns(C.P, C.E, L);
      if (!P)
        return P.takeError();
      C.P = *P;
      if (C.P == C.E)
        break;
    }

    const uint8_t *RecordStart = C.P;
    uint64_t T = C.varint();
    if (C.Short) {
      C.P = RecordStart;
      break;
    }

    if (T >= FirstRunTag) {
      uint64_t ExitId = T - FirstRunTag;
      if (ExitId >= Exits.size())
        return error(Offset(RecordStart),
                     "run through exit " + Twine(ExitId) + ", which no superblock defines");
      if (ThreadId == 0)
        return error(Offset(RecordStart), "run before the first thread record");
      NumInstructions += ExitInstructions[ExitId];
      ++NumRuns;
      if (Error E = L.onRun(runThrough(ThreadId, uint32_t(ExitId))))
        return E;
      continue;
    }

    switch (T) {
    case TagThread: {
      uint64_t Tid = C.varint();
      if (C.Short)
        break;
      if (Tid == 0 || Tid > UINT32_MAX)
        return error(Offset(RecordStart), "bad thread id " + Twine(Tid));
      ThreadId = uint32_t(Tid);
      L.onThreadSwitch(ThreadId);
      continue;
    }
    case TagModule: {
      CollectorModule M;
      uint64_t Id = C.varint();
      M.IsMainExecutable = C.byte() & 1;
      M.TextAddress = C.varint();
      M.TextSize = C.varint();
      uint64_t Bias = C.varint();
      M.LoadBias = int64_t(Bias >> 1) ^ -int64_t(Bias & 1); // zigzag
      uint64_t PathLen = C.varint();
      std::vector<uint8_t> Path;
      if (!C.Short && PathLen > 4096)
        return error(Offset(RecordStart), "module path of " + Twine(PathLen) + " bytes");
      C.bytes(PathLen, Path);
      if (C.Short)
        break;
      if (Id != Modules.size() + 1)
        return error(Offset(RecordStart), "module id " + Twine(Id) + ", expected " +
                                              Twine(Modules.size() + 1));
      M.Id = uint32_t(Id);
      M.Path.assign(Path.begin(), Path.end());
      Modules.push_back(std::move(M));
      if (Error E = L.onModule(Modules.back()))
        return E;
      continue;
    }
    case TagSuperblock: {
      CollectorSuperblock S;
      uint64_t FirstExit = C.varint();
      S.Address = C.varint();
      uint64_t ModuleId = C.varint();
      uint64_t NumInstrs = C.varint();
      if (!C.Short && (NumInstrs == 0 || NumInstrs > 255))
        return error(Offset(RecordStart),
                     "superblock of " + Twine(NumInstrs) + " instructions");
      C.bytes(NumInstrs, S.InstrLengths);
      size_t CodeSize = 0;
      for (uint8_t Len : S.InstrLengths)
        CodeSize += Len;
      C.bytes(CodeSize, S.Bytes);
      uint64_t NumExits = C.varint();
      if (!C.Short && (NumExits == 0 || NumExits > 256))
        return error(Offset(RecordStart), "superblock with " + Twine(NumExits) + " exits");
      C.bytes(NumExits, S.ExitInstrCounts);
      if (C.Short)
        break;
      if (FirstExit != Exits.size())
        return error(Offset(RecordStart), "superblock's first exit is " +
                                              Twine(FirstExit) + ", expected " +
                                              Twine(Exits.size()));
      if (ModuleId > Modules.size())
        return error(Offset(RecordStart), "superblock in undefined module " +
                                              Twine(ModuleId));
      for (uint8_t Count : S.ExitInstrCounts)
        if (Count == 0 || Count > NumInstrs)
          return error(Offset(RecordStart), "superblock exit after " + Twine(Count) +
                                                " of " + Twine(NumInstrs) +
                                                " instructions");
      S.FirstExitId = uint32_t(FirstExit);
      S.ModuleId = uint32_t(ModuleId);
      uint32_t Index = uint32_t(Superblocks.size());
      for (uint8_t Count : S.ExitInstrCounts) {
        Exits.push_back({S.Address, Index});
        ExitInstructions.push_back(Count);
      }
      Superblocks.push_back(std::move(S));
      if (Error E = L.onSuperblock(Superblocks.back(), Index))
        return E;
      continue;
    }
    case TagLoad: {
      CollectorLoadSite Site;
      Site.Address = C.varint();
      Site.Executions = C.varint();
      Site.Dependent = C.varint();
      if (C.Short)
        break;
      if (Site.Dependent > Site.Executions)
        return error(Offset(RecordStart), "load site with " + Twine(Site.Dependent) +
                                              " dependent loads of " +
                                              Twine(Site.Executions));
      if (Error E = L.onLoadSite(Site))
        return E;
      continue;
    }
    case TagEnd: {
      uint64_t Instrs = C.varint();
      uint64_t Runs = C.varint();
      if (C.Short)
        break;
      if (Instrs != NumInstructions || Runs != NumRuns)
        return error(Offset(RecordStart),
                     "end record counts " + Twine(Instrs) + " instructions in " +
                         Twine(Runs) + " runs, but the stream holds " +
                         Twine(NumInstructions) + " in " + Twine(NumRuns));
      Finished = true;
      continue;
    }
    default:
      return error(Offset(RecordStart), "unknown record tag " + Twine(T));
    }
    // Only an incomplete record gets here: re-parse it once more bytes arrive.
    C.P = RecordStart;
    break;
  }
  Pos = C.P - Buf.data();
  return Pos == End ? Parse::Done : Parse::NeedMore;
}

Expected<bool> CollectorStreamReader::step(CollectorStreamListener &L) {
  if (Finished)
    return false;
  if (!HeaderRead) {
    if (Error E = readHeader())
      return E;
  } else if (Expected<size_t> N = fill(); !N) {
    return N.takeError();
  }
  Expected<Parse> P = parseRecords(L);
  if (!P)
    return P.takeError();
  if (Finished) {
    if (Pos != End)
      return error(BufOffset + Pos, "data after the end record");
    return false;
  }
  if (Eof) {
    if (Pos != End)
      return createStringError(
          errc::invalid_argument,
          "%s: truncated collector stream: the record at offset %llu is cut off",
          Name.c_str(), (unsigned long long)(BufOffset + Pos));
    return createStringError(
        errc::invalid_argument,
        "%s: truncated collector stream: no end record after %llu bytes (did the "
        "traced program get killed?)",
        Name.c_str(), (unsigned long long)(BufOffset + End));
  }
  return true;
}

Error CollectorStreamReader::run(CollectorStreamListener &L) {
  while (true) {
    Expected<bool> More = step(L);
    if (!More)
      return More.takeError();
    if (!*More)
      return Error::success();
  }
}

} // namespace mlgo
