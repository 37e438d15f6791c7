/// \file
/// trace record: Valgrind writes the collector stream into a pipe; this process decodes
/// it as the program runs, so the raw instruction trace never touches the disk.
#include "CollectorStream.h"
#include "SegmentBuilder.h"
#include "SegmentTrace.h"
#include "SegmentTraceListener.h"
#include "Trace.h"
#include "ValgrindRun.h"
#include "WrittenTrace.h"
#include "code/CodeImage.h"
#include "support/Error.h"
#include "support/InputFile.h"
#include "support/Progress.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <optional>
#include <unistd.h>

extern char **environ;

namespace mlgo {
namespace {

std::vector<std::string> childEnvironment(llvm::StringRef ValgrindLibDir) {
  std::vector<std::string> Env;
  for (char **E = environ; *E; ++E)
    if (!llvm::StringRef(*E).starts_with("VALGRIND_LIB="))
      Env.push_back(*E);
  Env.push_back("VALGRIND_LIB=" + ValgrindLibDir.str());
  return Env;
}

} // namespace

/// Reads the collector stream to its end (or an error), with a progress line once the
/// recording has taken a second: short ones stay quiet, since the traced program
/// shares the terminal and its output would interleave with the line.
static llvm::Error readStream(CollectorStreamReader &Reader, SegmentBuilder &Builder,
                              bool ShowProgress) {
  auto Start = std::chrono::steady_clock::now();
  std::optional<Progress> Bar;
  uint64_t Shown = 0;
  for (;;) {
    llvm::Expected<bool> More = Reader.step(Builder);
    if (!More)
      return More.takeError();
    if (!*More)
      return llvm::Error::success();
    if (!Bar && ShowProgress &&
        std::chrono::steady_clock::now() - Start > std::chrono::seconds(1))
      Bar.emplace("trace record", 0, /*Show=*/true, "instructions");
    if (Bar) {
      Bar->advance(Reader.numInstructions() - Shown);
      Shown = Reader.numInstructions();
    }
  }
}

llvm::Expected<TraceRecordResult> runTraceRecord(const TraceRecordOptions &Opts) {
  auto Start = std::chrono::steady_clock::now();
  if (Opts.Command.empty())
    return inputError("trace record", "no program to run (give it after --)");
  if (auto Size = regularFileSize(Opts.Binary); !Size)
    return Size.takeError();
  // Valgrind prints its own lines when it cannot start the program: check it first.
  auto Program = findRunnableProgram(Opts.Command[0]);
  if (!Program)
    return Program.takeError();
  if (llvm::Error E = checkOutputIsNoInput(Opts.Output, {Opts.Binary, *Program}))
    return E;
  auto ValgrindPath = llvm::sys::findProgramByName(Opts.Valgrind);
  if (!ValgrindPath)
    return inputError(Opts.Valgrind, "cannot find valgrind: {}",
                      ValgrindPath.getError().message());
  std::string Tool = Opts.ValgrindLibDir + "/mlgotrace-amd64-linux";
  if (!llvm::sys::fs::exists(Tool))
    return inputError(Opts.ValgrindLibDir, "no mlgotrace tool here ({} is missing)", Tool);

  int Pipe[2];
  if (::pipe(Pipe) != 0 || ::fcntl(Pipe[0], F_SETFD, FD_CLOEXEC) != 0)
    return stageError("cannot create a pipe: {}", std::strerror(errno));
#ifdef F_SETPIPE_SZ
  // The tool writes 1 MiB at a time: a pipe that holds it all takes one write, not 16
  // (the default holds 64 KiB). Best effort: the limit is /proc/sys/fs/pipe-max-size.
  (void)::fcntl(Pipe[1], F_SETPIPE_SZ, 1 << 20);
#endif
  auto Log = ValgrindLog::create();
  if (!Log)
    return Log.takeError();
  std::vector<std::string> Args = {*ValgrindPath, "--tool=mlgotrace", "-q",
                                   "--fair-sched=yes", "--log-file=" + Log->path(),
                                   "--mlgotrace-fd=" + std::to_string(Pipe[1])};
  if (Opts.RecordLoadDependences)
    Args.push_back("--mlgotrace-loads=yes");
  Args.insert(Args.end(), Opts.Command.begin(), Opts.Command.end());
  std::vector<llvm::StringRef> ArgRefs(Args.begin(), Args.end());
  std::vector<std::string> Env = childEnvironment(Opts.ValgrindLibDir);
  std::vector<llvm::StringRef> EnvRefs(Env.begin(), Env.end());
  std::string SpawnError;
  llvm::sys::ProcessInfo Child =
      llvm::sys::ExecuteNoWait(*ValgrindPath, ArgRefs, EnvRefs, {}, 0, &SpawnError);
  ::close(Pipe[1]);
  if (Child.Pid <= 0) {
    ::close(Pipe[0]);
    return stageError("{}: cannot start: {}", *ValgrindPath, SpawnError);
  }
  // If Valgrind dies, the pipe closes and the reader reports a truncated stream.
  CollectorStreamReader Reader(Pipe[0], "the collector stream of " + Opts.Command[0],
                               /*OwnsFd=*/true);
  auto Stop = [&] { // before the whole stream has been read
    ::kill(Child.Pid, SIGKILL);
    llvm::sys::Wait(Child, std::nullopt);
  };

  // Load the binary while Valgrind starts (a fifth of a second): if it is unusable,
  // the program is stopped before it ran.
  auto Image = CodeImage::loadBinary(Opts.Binary);
  if (!Image) {
    Stop();
    return Image.takeError();
  }
  auto Writer = SegmentTraceWriter::create(Opts.Output, describeImage(*Image),
                                           Opts.KeepUnmappedCode,
                                           Opts.RecordLoadDependences);
  if (!Writer) {
    Stop();
    return Writer.takeError();
  }

  SegmentTraceListener Builder(*Image, **Writer, Opts.KeepUnmappedCode);
  llvm::Error ReadError = readStream(Reader, Builder, Opts.ShowProgress);
  if (ReadError && !Reader.eof()) { // ours, not a truncated stream
    Stop();
    return ReadError;
  }
  std::string WaitError;
  llvm::sys::ProcessInfo Done = llvm::sys::Wait(Child, std::nullopt, &WaitError);
  std::string Said = Log->summary();
  if (Done.ReturnCode < 0) {
    llvm::consumeError(std::move(ReadError));
    return stageError("{}: the traced program was killed ({}){}", Opts.Command[0],
                      WaitError.empty() ? "by a signal" : WaitError,
                      Said.empty() ? "" : "; valgrind: " + Said);
  }
  if (ReadError && !Said.empty()) // Valgrind failed, and says why
    return stageError("{}: valgrind failed: {} ({})", Opts.Command[0], Said,
                      llvm::toString(std::move(ReadError)));
  if (ReadError)
    return ReadError;
  if (llvm::Error E = Builder.finish())
    return E;
  // Every instruction the tool counted is in exactly one event.
  if ((*Writer)->instructions() != Reader.numInstructions())
    return stageError("{}: the trace holds {} instructions, the collector counted {}",
                      Opts.Output, (*Writer)->instructions(), Reader.numInstructions());
  LoadDependences Loads;
  if (Opts.RecordLoadDependences) {
    auto Found = Builder.loadSites().dependences();
    if (!Found)
      return Found.takeError();
    Loads = std::move(*Found);
    (*Writer)->setLoadDependences(Loads);
  }
  if (llvm::Error E = (*Writer)->finish())
    return E;

  TraceRecordResult Result;
  static_cast<WrittenTrace &>(Result) = describeWrittenTrace(**Writer, Opts.Output, Start);
  Result.LoadDependencesKept = Opts.RecordLoadDependences;
  for (const SegmentLoads &S : Loads)
    for (const LoadCounts &L : S.Loads) {
      Result.DataLoads += L.Executions > 0;
      Result.DataLoadExecutions += L.Executions;
      Result.DependentExecutions += L.Dependent;
    }
  Result.ProgramExitCode = Done.ReturnCode;
  Result.UnmappedCodeKept = Opts.KeepUnmappedCode;
  Result.CodeChunks = (*Writer)->codeChunks();
  Result.ValgrindMessages = std::move(Said);
  return Result;
}

Json TraceRecordResult::toJSON() const {
  return Json{{"format", "mlgo-ra.trace-record.summary"},
              {"version", 1},
              {"program_exit_code", ProgramExitCode},
              {"instructions", Instructions},
              {"events", Events},
              {"unmapped_code_kept", UnmappedCodeKept},
              {"code_chunks", CodeChunks},
              {"load_dependences_kept", LoadDependencesKept},
              {"data_loads", DataLoads},
              {"data_load_executions", DataLoadExecutions},
              {"dependent_data_load_executions", DependentExecutions},
              {"bytes", Bytes},
              {"seconds", Seconds}};
}

} // namespace mlgo
