/// \file
/// trace import --format lackey: reads the log of `valgrind --tool=lackey
/// --trace-mem=yes`, one line per event: "I  0401234,3" an executed instruction
/// (address and length, hexadecimal and decimal), " L", " S" and " M" data accesses,
/// and "==PID==" messages, among them the "guest instrs" total at exit.
#include "ExecutableLayout.h"
#include "TraceImporters.h"
#include "support/Error.h"
#include "support/InputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace mlgo {
namespace {

/// Where Valgrind 3.x loads a position-independent main executable (m_ume/elf.c puts
/// it just above 1 MB, "hacky_load_address"); an ET_EXEC binary stays where it was
/// linked. Checked at import: the binary's entry point must run at that address.
constexpr uint64_t ValgrindPieLoadBias = 0x108000;

struct LackeyLog {
  uint64_t Instructions = 0; ///< "I" lines
  uint64_t Totals = 0;       ///< "guest instrs:" lines (one per process)
  uint64_t GuestInstrs = 0;  ///< the last total's value
  bool EntryRan = false;
};

/// "guest instrs:  1,234,567" (with digit grouping) in a message line, if there.
bool parseGuestInstrs(llvm::StringRef Line, uint64_t &Value) {
  size_t At = Line.find("guest instrs:");
  if (At == llvm::StringRef::npos)
    return false;
  Value = 0;
  for (char C : Line.drop_front(At + 13).trim())
    if (C >= '0' && C <= '9')
      Value = Value * 10 + (C - '0');
    else if (C != ',')
      return false;
  return true;
}

class LackeyReader {
public:
  LackeyReader(const TraceImportOptions &Opts, ImportSink &Sink, uint64_t EntryAddress)
      : Opts(Opts), Sink(Sink), EntryAddress(EntryAddress) {}

  llvm::Expected<LackeyLog> read() {
    if (auto Size = regularFileSize(Opts.Input); !Size)
      return Size.takeError();
    std::unique_ptr<std::FILE, int (*)(std::FILE *)> File(
        std::fopen(Opts.Input.c_str(), "rb"), &std::fclose);
    if (!File)
      return inputError(Opts.Input, "cannot read: {}", std::strerror(errno));
    std::vector<char> Buf(size_t(1) << 20);
    size_t Kept = 0; // bytes of an unfinished line at the start of Buf
    for (;;) {
      if (Kept == Buf.size())
        return inputError(Opts.Input, "line {} is longer than {} bytes", LineNumber + 1,
                          Buf.size());
      size_t Got = std::fread(Buf.data() + Kept, 1, Buf.size() - Kept, File.get());
      if (Got == 0) {
        if (std::ferror(File.get()))
          return inputError(Opts.Input, "cannot read: {}", std::strerror(errno));
        break;
      }
      llvm::StringRef Text(Buf.data(), Kept + Got);
      size_t LineEnd;
      while ((LineEnd = Text.find('\n')) != llvm::StringRef::npos) {
        if (llvm::Error E = line(Text.take_front(LineEnd)))
          return E;
        Text = Text.drop_front(LineEnd + 1);
      }
      std::memmove(Buf.data(), Text.data(), Text.size());
      Kept = Text.size();
    }
    if (Kept)
      if (llvm::Error E = line(llvm::StringRef(Buf.data(), Kept)))
        return E;
    return Log;
  }

private:
  llvm::Error line(llvm::StringRef Line) {
    ++LineNumber;
    Line = Line.rtrim('\r');
    if (Line.empty() || Line.starts_with(" L ") || Line.starts_with(" S ") ||
        Line.starts_with(" M ") || Line.starts_with("SB "))
      return llvm::Error::success(); // data accesses, --trace-superblocks lines
    if (Line.starts_with("==") || Line.starts_with("--") || Line.starts_with("**")) {
      uint64_t Total;
      if (parseGuestInstrs(Line, Total)) {
        ++Log.Totals;
        Log.GuestInstrs = Total;
      }
      return llvm::Error::success();
    }
    uint64_t Address, Length;
    auto [AddressText, LengthText] = Line.drop_front(1).ltrim(' ').split(',');
    if (Line[0] != 'I' || AddressText.getAsInteger(16, Address) ||
        LengthText.getAsInteger(10, Length))
      return inputError(Opts.Input,
                        "line {}: not a Lackey record: \"{}\" (run Lackey with "
                        "--log-file, so that the program's output stays apart)",
                        LineNumber, Line.take_front(60).str());
    if (Length < 1 || Length > 255)
      return inputError(Opts.Input, "line {}: instruction length {} is not 1..255",
                        LineNumber, Length);
    ++Log.Instructions;
    Log.EntryRan |= Address == EntryAddress;
    // Lackey does not say which thread ran an instruction: all are thread 1's.
    return Sink.Runs.addInstruction(1, Address, Length);
  }

  const TraceImportOptions &Opts;
  ImportSink &Sink;
  uint64_t EntryAddress;
  uint64_t LineNumber = 0;
  LackeyLog Log;
};

} // namespace

llvm::Error importLackey(const TraceImportOptions &Opts, ImportSink &Sink) {
  auto Layout = ExecutableLayout::load(Opts.Binary);
  if (!Layout)
    return Layout.takeError();
  uint64_t Bias = Layout->PositionIndependent ? ValgrindPieLoadBias : 0;
  llvm::SmallString<256> RealPath;
  if (llvm::sys::fs::real_path(Opts.Binary, RealPath))
    RealPath = Opts.Binary;
  CollectorModule Binary;
  Binary.Id = 1;
  Binary.IsMainExecutable = true;
  Binary.LoadBias = static_cast<int64_t>(Bias);
  Binary.Path = std::string(RealPath);
  if (!Layout->Executable.empty()) {
    Binary.TextAddress = Layout->Executable.front().Begin + Bias;
    Binary.TextSize = Layout->Executable.front().End - Layout->Executable.front().Begin;
  }
  if (llvm::Error E = Sink.Modules.onModule(Binary))
    return E;
  for (const ExecutableLayout::Range &R : Layout->Executable)
    Sink.Runs.addModuleRange(R.Begin + Bias, R.End + Bias, Binary.Id);

  Sink.InputFiles = 1;
  LackeyReader Reader(Opts, Sink, Layout->Entry + Bias);
  auto Log = Reader.read();
  if (!Log)
    return Log.takeError();
  if (Log->Totals == 0)
    return inputError(Opts.Input, "no \"guest instrs\" total at its end: the log is cut "
                                  "short, or Lackey ran with --basic-counts=no");
  if (Log->Totals > 1)
    return inputError(Opts.Input, "holds the logs of {} processes; import one (Lackey's "
                                  "--log-file=app.%p.log writes one per process)",
                      Log->Totals);
  if (Log->Instructions == 0)
    return inputError(Opts.Input, "holds no instruction lines (run Lackey with "
                                  "--trace-mem=yes)");
  if (Log->Instructions != Log->GuestInstrs)
    return inputError(Opts.Input, "Lackey counted {} guest instructions but the log "
                                  "holds {} instruction lines",
                      Log->GuestInstrs, Log->Instructions);
  if (!Log->EntryRan)
    return inputError(Opts.Input, "the entry point of {} never ran at {:#x} (where "
                                  "Valgrind loads it): is this a log of that binary?",
                      Opts.Binary, Layout->Entry + Bias);
  return Sink.endThread();
}

} // namespace mlgo
