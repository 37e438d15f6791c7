/// \file
/// Spawning and reaping the compiler.
#include "ChildProcess.h"

#include "support/Error.h"
#include "support/WaitStatus.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace mlgo {

llvm::Expected<ChildProcess> ChildProcess::spawn(const std::vector<std::string> &Argv,
                                                 const std::string &StderrPath) {
  // Everything the child needs is prepared before fork: after it, in a threaded
  // process, the child may only make async-signal-safe calls.
  std::vector<char *> Args;
  for (const std::string &A : Argv)
    Args.push_back(const_cast<char *>(A.c_str()));
  Args.push_back(nullptr);
  int ExecFailed[2]; // carries exec's errno; closed by a successful exec
  if (pipe2(ExecFailed, O_CLOEXEC) != 0)
    return stageError("cannot start the compiler: {}", std::strerror(errno));
  pid_t Host = getpid();

  pid_t Pid = fork();
  if (Pid == 0) {
    // The compiler dies with the host, even a host killed with SIGKILL: a compiler
    // waiting on its advisor's FIFO would otherwise wait forever.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != Host)
      _exit(127);
    int In = open("/dev/null", O_RDONLY), Out = open("/dev/null", O_WRONLY);
    int Err = open(StderrPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (In < 0 || Out < 0 || Err < 0 || dup2(In, 0) < 0 || dup2(Out, 1) < 0 ||
        dup2(Err, 2) < 0)
      _exit(127);
    // The host ignores SIGPIPE and may catch SIGINT; the compiler gets the defaults.
    for (int Sig : {SIGPIPE, SIGINT, SIGTERM})
      signal(Sig, SIG_DFL);
    sigset_t Empty;
    sigemptyset(&Empty);
    sigprocmask(SIG_SETMASK, &Empty, nullptr);
    execvp(Args[0], Args.data());
    int Errno = errno;
    (void)!write(ExecFailed[1], &Errno, sizeof(Errno));
    _exit(127);
  }
  int ForkErrno = errno;
  close(ExecFailed[1]);
  if (Pid < 0) {
    close(ExecFailed[0]);
    return stageError("cannot start the compiler: {}", std::strerror(ForkErrno));
  }
  int ExecErrno = 0;
  ssize_t N;
  do
    N = read(ExecFailed[0], &ExecErrno, sizeof(ExecErrno));
  while (N < 0 && errno == EINTR);
  close(ExecFailed[0]);
  if (N == sizeof(ExecErrno)) {
    waitpid(Pid, nullptr, 0);
    return inputError(Argv[0], "cannot run the compiler: {}", std::strerror(ExecErrno));
  }
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

std::string ChildProcess::describe(int Status) { return describeWaitStatus(Status); }

} // namespace mlgo
