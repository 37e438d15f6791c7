/// \file
/// trace import --format drmemtrace: DynamoRIO's offline traces after raw2trace. Each
/// thread file holds 12-byte little-endian records `u16 type, u16 size, u64 addr`
/// (trace_entry_t, clients/drcachesim/common/trace_entry.h): a header (type 25) first,
/// a thread record (22: addr = thread id), then instruction fetches (size = length,
/// addr = PC) among data references, markers and encodings, and a footer (26) last.
#include "DrmemtraceFile.h"
#include "DrmemtraceModules.h"
#include "ExecutableLayout.h"
#include "TraceImporters.h"
#include "support/Error.h"
#include "support/InputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <algorithm>

namespace mlgo {
namespace {

enum RecordType : uint16_t {
  TypeInstrBundle = 17,
  TypeThread = 22,
  TypeHeader = 25,
  TypeFooter = 26,
  TypeMarker = 28,
};
/// The marker (in the size field) that ends every zip chunk but the last.
constexpr uint16_t MarkerChunkFooter = 21;
constexpr size_t RecordSize = 12;

/// Instruction fetches: plain, jumps, calls, returns (10-16), sysenter (31), taken and
/// untaken conditional jumps (48, 49). Also 29, the later iterations of a rep string
/// instruction (30 is its online form), because Valgrind and so `trace record` count
/// each iteration as an executed instruction.
bool isInstruction(uint16_t Type) {
  return (Type >= 10 && Type <= 16) || Type == 29 || Type == 30 || Type == 31 ||
         Type == 48 || Type == 49;
}

struct Record {
  uint16_t Type, Size;
  uint64_t Addr;
};

/// Reads one thread file's records into the sink.
class ThreadFileReader {
public:
  ThreadFileReader(std::string Path, ImportSink &Sink) : Path(std::move(Path)), Sink(Sink) {}

  llvm::Error read() {
    auto File = DrmemtraceFile::open(Path);
    if (!File)
      return File.takeError();
    std::vector<uint8_t> Buf(size_t(1) << 16);
    for (;;) {
      auto More = (*File)->nextChunk();
      if (!More)
        return More.takeError();
      if (!*More)
        break;
      Chunk = (*File)->chunkName();
      size_t Kept = 0; // bytes of a record cut by the previous read
      bool Empty = true;
      for (;;) {
        auto Got = (*File)->read(Buf.data() + Kept, Buf.size() - Kept);
        if (!Got)
          return Got.takeError();
        if (*Got == 0)
          break;
        size_t Have = Kept + *Got, At = 0;
        for (; Have - At >= RecordSize; At += RecordSize) {
          Empty = false;
          if (llvm::Error E = record(decode(Buf.data() + At)))
            return E;
        }
        Kept = Have - At;
        std::copy(Buf.begin() + At, Buf.begin() + Have, Buf.begin());
      }
      if (Kept)
        return error("ends inside a record: truncated");
      bool ChunkEnded = Footer || (!Empty && Last.Type == TypeMarker &&
                                   Last.Size == MarkerChunkFooter);
      if ((*File)->isChunked() && !ChunkEnded)
        return error("does not end with a chunk footer: truncated");
    }
    if (Records == 0)
      return inputError(Path, "holds no records");
    if (!Footer)
      return error("has no footer record (type 26) at its end: truncated");
    return llvm::Error::success();
  }

private:
  static Record decode(const uint8_t *P) {
    using namespace llvm::support::endian;
    return {read16le(P), read16le(P + 2), read64le(P + 4)};
  }

  llvm::Error error(const llvm::Twine &What) const {
    std::string Where = Chunk.empty() ? "" : Chunk + ": ";
    return inputError(Path, "{}record {}: {}", Where, Records, What.str());
  }

  llvm::Error record(const Record &R) {
    ++Records;
    if (Footer)
      return error("a record after the footer");
    if (Records == 1 && R.Type != TypeHeader)
      return error("not a drmemtrace trace (it does not start with a header record, "
                   "type 25)");
    Last = R;
    if (R.Type == TypeThread) {
      if (R.Addr > UINT32_MAX)
        return error("thread id " + llvm::Twine(R.Addr) + " does not fit in 32 bits");
      ThreadId = R.Addr;
      HaveThread = true;
    } else if (R.Type == TypeFooter) {
      Footer = true;
    } else if (isInstruction(R.Type)) {
      if (R.Size < 1 || R.Size > 255)
        return error("instruction length " + llvm::Twine(R.Size) + " is not 1..255");
      return instruction(R.Addr, R.Size);
    } else if (R.Type == TypeInstrBundle) {
      // Up to 8 more instructions, each right after the previous; addr holds lengths.
      if (!PreviousLength || R.Size > 8)
        return error("an instruction bundle without a preceding instruction");
      for (unsigned I = 0; I < R.Size; ++I) {
        uint32_t Length = (R.Addr >> (8 * I)) & 0xff;
        if (!Length)
          return error("an instruction of length 0 in a bundle");
        if (llvm::Error E = instruction(PreviousAddress + PreviousLength, Length))
          return E;
      }
    }
    // Everything else (data references, markers, encodings, ...) says nothing about
    // which instructions ran.
    return llvm::Error::success();
  }

  llvm::Error instruction(uint64_t Address, uint32_t Length) {
    if (!HaveThread)
      return error("an instruction before the thread record (type 22)");
    PreviousAddress = Address;
    PreviousLength = Length;
    return Sink.Runs.addInstruction(ThreadId, Address, Length);
  }

  std::string Path;
  ImportSink &Sink;
  std::string Chunk;
  uint64_t Records = 0;
  Record Last{0, 0, 0};
  bool Footer = false, HaveThread = false;
  uint32_t ThreadId = 0;
  uint64_t PreviousAddress = 0;
  uint32_t PreviousLength = 0;
};

bool isThreadFile(llvm::StringRef Name) {
  return Name.ends_with(".trace") || Name.ends_with(".trace.gz") ||
         Name.ends_with(".trace.zip");
}

/// The thread files of the input, sorted by name so that the output is reproducible.
llvm::Expected<std::vector<std::string>> findThreadFiles(llvm::StringRef Input) {
  if (!llvm::sys::fs::is_directory(Input))
    return std::vector<std::string>{Input.str()};
  llvm::SmallString<256> Dir(Input);
  llvm::sys::path::append(Dir, "trace");
  if (!llvm::sys::fs::is_directory(Dir))
    Dir = Input;
  std::vector<std::string> Files;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (isThreadFile(llvm::sys::path::filename(It->path())))
      Files.push_back(It->path());
  if (EC)
    return inputError(Dir, "cannot list: {}", EC.message());
  if (Files.empty())
    return inputError(Dir, "holds no drmemtrace thread files (*.trace, *.trace.gz, "
                           "*.trace.zip; run drraw2trace on a raw/ directory first)");
  std::sort(Files.begin(), Files.end());
  return Files;
}

/// Where DynamoRIO's analyzers look for modules.log, beside the trace files' directory.
llvm::Expected<std::string> findModulesLog(const TraceImportOptions &Opts) {
  if (!Opts.ModulesLog.empty())
    return Opts.ModulesLog;
  llvm::SmallString<256> Base(Opts.Input);
  if (!llvm::sys::fs::is_directory(Base))
    llvm::sys::path::remove_filename(Base);
  if (Base.empty())
    Base = ".";
  for (const char *Sub : {"", "trace", "raw", "aux", "../raw", "../aux"}) {
    llvm::SmallString<256> Candidate(Base);
    llvm::sys::path::append(Candidate, Sub, "modules.log");
    if (llvm::sys::fs::exists(Candidate))
      return std::string(Candidate);
  }
  return inputError(Opts.Input, "no modules.log beside it (looked in ., trace/, raw/, "
                                "aux/, ../raw/ and ../aux/); name it with --modules");
}

bool sameFile(llvm::StringRef A, llvm::StringRef B) {
  bool Equivalent = false;
  return A == B || (!llvm::sys::fs::equivalent(A, B, Equivalent) && Equivalent);
}

/// The module (its first segment) that is the binary: the same file, or else the only
/// module with the same file name (a trace recorded on another machine).
llvm::Expected<const DrmemtraceModule *>
findBinary(const std::vector<DrmemtraceModule> &Modules, llvm::StringRef Binary,
           llvm::StringRef ModulesLog) {
  std::vector<const DrmemtraceModule *> ByName;
  for (const DrmemtraceModule &M : Modules) {
    if (M.Id != M.ContainingId)
      continue;
    if (sameFile(M.Path, Binary))
      return &M;
    if (llvm::sys::path::filename(M.Path) == llvm::sys::path::filename(Binary))
      ByName.push_back(&M);
  }
  if (ByName.size() == 1)
    return ByName.front();
  if (ByName.empty())
    return inputError(ModulesLog, "lists no module for {}", Binary);
  return inputError(ModulesLog, "lists {} modules named {}; cannot tell which is {}",
                    ByName.size(), llvm::sys::path::filename(Binary), Binary);
}

/// Defines every module in the sink; module ids are DynamoRIO's containing ids + 1, so
/// that 0 stays "no module" (code outside every module, e.g. generated code).
llvm::Error defineModules(const TraceImportOptions &Opts, ImportSink &Sink) {
  auto ModulesLog = findModulesLog(Opts);
  if (!ModulesLog)
    return ModulesLog.takeError();
  if (llvm::Error E = checkOutputIsNoInput(Opts.Output, {*ModulesLog}))
    return E;
  auto Modules = readModulesLog(*ModulesLog);
  if (!Modules)
    return Modules.takeError();
  auto Binary = findBinary(*Modules, Opts.Binary, *ModulesLog);
  if (!Binary)
    return Binary.takeError();
  // The entry point checks that the module is this build of the binary.
  auto Layout = ExecutableLayout::load(Opts.Binary);
  if (!Layout)
    return Layout.takeError();
  int64_t Bias = (*Binary)->loadBias();
  if ((*Binary)->Entry - Bias != Layout->Entry)
    return inputError(*ModulesLog, "{} ran with its entry point at {:#x} (load bias {:#x}), "
                                   "but {} has it at {:#x}: a different build?",
                      (*Binary)->Path, (*Binary)->Entry, Bias, Opts.Binary, Layout->Entry);
  for (const DrmemtraceModule &M : *Modules) {
    if (M.Id == M.ContainingId) {
      CollectorModule C;
      C.Id = M.Id + 1;
      C.IsMainExecutable = &M == *Binary;
      C.TextAddress = M.Start;
      C.TextSize = M.End - M.Start;
      C.LoadBias = M.loadBias();
      C.Path = M.Path;
      if (llvm::Error E = Sink.Modules.onModule(C))
        return E;
    }
    Sink.Runs.addModuleRange(M.Start, M.End, M.ContainingId + 1);
  }
  return llvm::Error::success();
}

} // namespace

llvm::Error importDrmemtrace(const TraceImportOptions &Opts, ImportSink &Sink) {
  auto Files = findThreadFiles(Opts.Input);
  if (!Files)
    return Files.takeError();
  if (llvm::Error E = checkOutputIsNoInput(Opts.Output, *Files))
    return E;
  if (llvm::Error E = defineModules(Opts, Sink))
    return E;
  for (const std::string &File : *Files) {
    if (llvm::Error E = ThreadFileReader(File, Sink).read())
      return E;
    if (llvm::Error E = Sink.endThread())
      return E;
    ++Sink.InputFiles;
  }
  return llvm::Error::success();
}

} // namespace mlgo
