/// \file
/// Spawning and reaping the compiler.
#include "ChildProcess.h"

#include "support/Error.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace mlgo {

llvm::Expected<ChildProcess> ChildProcess::spawn(const std::vector<std::string> &Argv,
                                                 const std::string &StderrPath) {
  std::vector<char *> Args;
  for (const std::string &A : Argv)
    Args.push_back(const_cast<char *>(A.c_str()));
  Args.push_back(nullptr);

  posix_spawn_file_actions_t Files;
  posix_spawn_file_actions_init(&Files);
  posix_spawn_file_actions_addopen(&Files, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&Files, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&Files, 2, StderrPath.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  // The host ignores SIGPIPE and may catch SIGINT; the compiler gets the defaults.
  posix_spawnattr_t Attr;
  posix_spawnattr_init(&Attr);
  sigset_t Default, Empty;
  sigemptyset(&Default);
  for (int Sig : {SIGPIPE, SIGINT, SIGTERM})
    sigaddset(&Default, Sig);
  sigemptyset(&Empty);
  posix_spawnattr_setsigdefault(&Attr, &Default);
  posix_spawnattr_setsigmask(&Attr, &Empty);
  posix_spawnattr_setflags(&Attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

  pid_t Pid;
  int Err = posix_spawnp(&Pid, Args[0], &Files, &Attr, Args.data(), environ);
  posix_spawn_file_actions_destroy(&Files);
  posix_spawnattr_destroy(&Attr);
  if (Err != 0)
    return inputError(Argv[0], "cannot run the compiler: {}", std::strerror(Err));
  return ChildProcess(Pid);
}

ChildProcess::ChildProcess(pid_t Pid) : Pid(Pid) {
#ifdef SYS_pidfd_open
  ExitFd = int(syscall(SYS_pidfd_open, Pid, 0));
#endif
}

ChildProcess::ChildProcess(ChildProcess &&Other) noexcept
    : Pid(Other.Pid), ExitFd(Other.ExitFd), Status(Other.Status) {
  Other.Pid = -1;
  Other.ExitFd = -1;
}

ChildProcess::~ChildProcess() {
  if (Pid > 0 && !Status)
    kill();
  if (ExitFd >= 0)
    close(ExitFd);
}

std::optional<int> ChildProcess::poll() {
  if (Status || Pid <= 0)
    return Status;
  int S;
  pid_t R;
  do
    R = waitpid(Pid, &S, WNOHANG);
  while (R < 0 && errno == EINTR);
  if (R == Pid)
    Status = S;
  return Status;
}

void ChildProcess::kill() {
  if (Pid <= 0 || Status)
    return;
  ::kill(Pid, SIGKILL);
  int S;
  while (waitpid(Pid, &S, 0) < 0 && errno == EINTR) {
  }
  Status = S;
}

std::string ChildProcess::describe(int Status) {
  if (WIFEXITED(Status))
    return fmt::format("exited with code {}", WEXITSTATUS(Status));
  if (WIFSIGNALED(Status))
    return fmt::format("was killed by signal {} ({})", WTERMSIG(Status),
                       strsignal(WTERMSIG(Status)));
  return fmt::format("ended with wait status {}", Status);
}

} // namespace mlgo
