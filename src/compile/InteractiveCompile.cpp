/// \file
/// The host loop. Nothing here blocks for long: the FIFOs are opened without blocking
/// before the compiler starts, and every wait is a poll() of the compiler's output and
/// its exit (a pidfd) for at most 50 ms, after which the host checks the deadline and
/// interrupts. So a compiler that never opens the FIFOs, dies, or hangs cannot hang
/// the host, and a compile costs no sleeping.
#include "InteractiveCompile.h"

#include "Channel.h"
#include "ChildProcess.h"
#include "ProtocolReader.h"
#include "support/Error.h"
#include "support/Interrupt.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <poll.h>
#include <signal.h>
#include <thread>
#include <unistd.h>

namespace mlgo {

namespace {

using Clock = std::chrono::steady_clock;
constexpr int SliceMs = 50;

/// The last lines of the compiler's stderr, for error messages.
std::string readDiagnostics(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

/// The compiler's stderr summed up for a one-line error: its first "error:" line, or
/// else its last line.
std::string tail(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Text.split(Lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  llvm::StringRef Chosen;
  for (llvm::StringRef Line : Lines)
    if (Line.contains("error:")) {
      Chosen = Line;
      break;
    }
  if (Chosen.empty() && !Lines.empty())
    Chosen = Lines.back();
  Chosen = Chosen.trim();
  return Chosen.empty() ? std::string() : ": " + Chosen.str();
}

class Session {
public:
  Session(const Policy &P, const CompileOptions &Options, ChildProcess &Child,
          Channel *Chan, std::string StderrPath, DecisionRecorder *Recorder)
      : P(P), Options(Options), Child(Child), Chan(Chan),
        StderrPath(std::move(StderrPath)), Recorder(Recorder),
        Reader(llvm::sys::path::filename(Options.Clang).str()), Start(Clock::now()) {}

  llvm::Expected<CompileResult> run();

private:
  /// Why the host must stop waiting, if it must: timeout or interrupt.
  llvm::Error checkStop();
  /// Waits up to a slice for the compiler's output (if \p Fd >= 0) or its exit;
  /// returns whether \p Fd is readable.
  llvm::Expected<bool> wait(int Fd, int TimeoutMs);
  llvm::Error exchange();
  llvm::Error answer(const ProtocolMessage &M);
  llvm::Error finish();
  std::string name() const { return llvm::sys::path::filename(Options.Clang).str(); }

  const Policy &P;
  const CompileOptions &Options;
  ChildProcess &Child;
  Channel *Chan; ///< null: the compiler runs without the advisor
  std::string StderrPath;
  DecisionRecorder *Recorder;
  ProtocolReader Reader;
  Clock::time_point Start;
  std::string Function;
  CompileResult Result;
};

llvm::Error Session::checkStop() {
  if (interruptRequested()) {
    Child.kill();
    return stageError("{}: interrupted", name());
  }
  if (Options.TimeoutSeconds > 0 &&
      std::chrono::duration<double>(Clock::now() - Start).count() >
          Options.TimeoutSeconds) {
    Child.kill();
    return stageError("{} timed out after {} s and was killed", name(),
                      Options.TimeoutSeconds);
  }
  return llvm::Error::success();
}

llvm::Expected<bool> Session::wait(int Fd, int TimeoutMs) {
  pollfd Fds[2] = {{Fd, POLLIN, 0}, {Child.exitFd(), POLLIN, 0}};
  int Ready = ::poll(Fds, 2, TimeoutMs);
  if (Ready < 0 && errno != EINTR)
    return stageError("{}: poll failed: {}", name(), std::strerror(errno));
  if (Fds[1].revents || Child.exitFd() < 0)
    Child.poll(); // reaps it if it has exited
  return Ready > 0 && Fds[0].revents != 0;
}

llvm::Error Session::answer(const ProtocolMessage &M) {
  int64_t Decision = P.decide(M.Features);
  if (!M.Features.legal(Decision))
    return stageError("{}: observation {} of {} has no legal column", name(), M.Index,
                      Function);
  if (Options.OnDecision)
    Options.OnDecision({Child.pid(), Function, M.Index, M.Features, Decision});
  if (Recorder)
    Recorder->record(Function, M.Index, Decision, M.Features);
  ++Result.Decisions;
  char Reply[8];
  llvm::support::endian::write64le(Reply, Decision);
  size_t Done = 0;
  while (Done < sizeof(Reply)) {
    ssize_t N = write(Chan->toCompiler(), Reply + Done, sizeof(Reply) - Done);
    if (N > 0) {
      Done += N;
      continue;
    }
    if (N < 0 && errno != EAGAIN && errno != EINTR)
      return stageError("{}: cannot write to the advisor channel: {}", name(),
                        std::strerror(errno));
    if (llvm::Error E = checkStop())
      return E;
    if (Child.poll())
      return llvm::Error::success();
    pollfd Out = {Chan->toCompiler(), POLLOUT, 0};
    ::poll(&Out, 1, SliceMs);
  }
  return llvm::Error::success();
}

llvm::Error Session::exchange() {
  char Chunk[1 << 16];
  bool Exited = false;
  while (true) {
    // Checked on every message too: a compiler that streams decisions fast must
    // still respect the deadline.
    if (llvm::Error E = checkStop())
      return E;
    auto Readable = wait(Chan->fromCompiler(), Exited ? 0 : SliceMs);
    if (!Readable)
      return Readable.takeError();
    ssize_t N = 0;
    if (*Readable) {
      N = read(Chan->fromCompiler(), Chunk, sizeof(Chunk));
      if (N < 0 && errno != EAGAIN && errno != EINTR)
        return stageError("{}: cannot read the advisor channel: {}", name(),
                          std::strerror(errno));
      // End of file before any data only means the compiler has not opened B.out.
      if (N == 0 && Result.ChannelOpened)
        return llvm::Error::success();
    }
    if (N > 0) {
      Result.ChannelOpened = true;
      Reader.append(Chunk, N);
      while (true) {
        auto M = Reader.next();
        if (!M)
          return M.takeError();
        if (!*M)
          break;
        if ((*M)->K == ProtocolMessage::Context) {
          Function = (*M)->Function;
          ++Result.Functions;
        } else if ((*M)->K == ProtocolMessage::Decision) {
          if (llvm::Error E = answer(**M))
            return E;
        }
      }
      continue;
    }
    // Nothing to read. If the compiler has gone, read once more without waiting:
    // what it wrote just before exiting is still in the FIFO.
    if (Exited)
      return llvm::Error::success();
    if (Child.poll()) {
      Exited = true;
      continue;
    }
    if (*Readable) // a hang-up before any writer: do not spin
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

llvm::Error Session::finish() {
  while (!Child.poll()) {
    if (llvm::Error E = checkStop())
      return E;
    auto Ignored = wait(-1, SliceMs);
    if (!Ignored)
      return Ignored.takeError();
  }
  Result.Diagnostics = readDiagnostics(StderrPath);
  int Status = *Child.poll();
  if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0)
    return stageError("{} {}{}", name(), ChildProcess::describe(Status),
                      tail(Result.Diagnostics));
  if (Reader.pending())
    return stageError("{}: the advisor channel ended in the middle of a message", name());
  return llvm::Error::success();
}

llvm::Expected<CompileResult> Session::run() {
  if (Chan)
    if (llvm::Error E = exchange())
      return E;
  if (llvm::Error E = finish())
    return E;
  Result.Seconds = std::chrono::duration<double>(Clock::now() - Start).count();
  return Result;
}

} // namespace

llvm::Expected<CompileResult> compileWithPolicy(const Policy &P,
                                                const CompileOptions &Options) {
  // Every compile gets a directory: the FIFOs (advisor policies) and stderr.
  auto Chan = Channel::create(Options.ChannelParent);
  if (!Chan)
    return Chan.takeError();
  std::vector<std::string> Argv = {Options.Clang, "-cc1"};
  Argv.insert(Argv.end(), Options.Args.begin(), Options.Args.end());
  if (P.usesAdvisor()) {
    for (std::string Flag :
         {std::string("-regalloc-enable-advisor=release"),
          "-regalloc-evict-interactive-channel-base=" + Chan->base()}) {
      Argv.push_back("-mllvm");
      Argv.push_back(Flag);
    }
  }
  std::unique_ptr<DecisionRecorder> Recorder;
  if (!Options.RecordDecisions.empty() && P.usesAdvisor()) {
    auto R = DecisionRecorder::create(Options.RecordDecisions, P.name());
    if (!R)
      return R.takeError();
    Recorder = std::move(*R);
  }
  if (P.usesAdvisor())
    if (llvm::Error E = Chan->open())
      return E;
  auto Child = ChildProcess::spawn(Argv, Chan->stderrPath());
  if (!Child)
    return Child.takeError();
  Session S(P, Options, *Child, P.usesAdvisor() ? &*Chan : nullptr, Chan->stderrPath(),
            Recorder.get());
  auto Result = S.run();
  if (!Result)
    return Result.takeError();
  if (Recorder)
    if (llvm::Error E = Recorder->commit())
      return E;
  return Result;
}

} // namespace mlgo
