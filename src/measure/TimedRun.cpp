#include "TimedRun.h"
#include "support/Error.h"
#include "support/Interrupt.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace mlgo {

std::string firstLineOf(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return "";
  llvm::StringRef Rest = (*Buffer)->getBuffer();
  while (!Rest.empty()) {
    auto [Line, Next] = Rest.split('\n');
    if (!Line.trim().empty())
      return Line.trim().str();
    Rest = Next;
  }
  return "";
}

llvm::Expected<RunOutcome> runTimed(const RunSpec &Spec) {
  auto file = [](const std::string &Path) { return Path.empty() ? "/dev/null" : Path.c_str(); };
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_addopen(&Actions, 0, file(Spec.Stdin), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&Actions, 1, file(Spec.Stdout),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&Actions, 2, file(Spec.Stderr),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!Spec.Directory.empty())
    posix_spawn_file_actions_addchdir_np(&Actions, Spec.Directory.c_str());
  std::vector<char *> Argv;
  for (const std::string &A : Spec.Argv)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  pid_t Pid;
  int Failed = posix_spawnp(&Pid, Argv[0], &Actions, nullptr, Argv.data(), environ);
  posix_spawn_file_actions_destroy(&Actions);
  if (Failed)
    return stageError("cannot run {}: {}", Spec.Argv[0], std::strerror(Failed));

  // Wait on a pidfd in slices of 50 ms, so that an interrupt kills the run at once.
  int ExitFd = static_cast<int>(syscall(SYS_pidfd_open, Pid, 0));
  RunOutcome Outcome;
  rusage Usage{};
  for (;;) {
    if (interruptRequested()) {
      kill(Pid, SIGKILL);
      while (wait4(Pid, &Outcome.Status, 0, &Usage) < 0 && errno == EINTR) {
      }
      if (ExitFd >= 0)
        close(ExitFd);
      return stageError("interrupted");
    }
    pid_t Done = wait4(Pid, &Outcome.Status, WNOHANG, &Usage);
    if (Done == Pid)
      break;
    if (Done < 0 && errno != EINTR) {
      if (ExitFd >= 0)
        close(ExitFd);
      return stageError("cannot wait for {}: {}", Spec.Argv[0], std::strerror(errno));
    }
    if (ExitFd >= 0) {
      pollfd Wait{ExitFd, POLLIN, 0};
      poll(&Wait, 1, 50);
    } else {
      usleep(2000);
    }
  }
  if (ExitFd >= 0)
    close(ExitFd);
  auto seconds = [](const timeval &T) { return T.tv_sec + T.tv_usec / 1e6; };
  Outcome.CpuSeconds = seconds(Usage.ru_utime) + seconds(Usage.ru_stime);
  return Outcome;
}

} // namespace mlgo
