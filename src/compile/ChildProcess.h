/// \file
/// A compiler child process that is always reaped: the destructor kills and waits for
/// one still running, so no error path leaves a process behind.
#pragma once

#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace mlgo {

class ChildProcess {
public:
  /// Starts \p Argv (Argv[0] is the program, looked up in PATH) with stdin and stdout
  /// on /dev/null and stderr into \p StderrPath.
  static llvm::Expected<ChildProcess> spawn(const std::vector<std::string> &Argv,
                                            const std::string &StderrPath);
  ChildProcess(ChildProcess &&Other) noexcept;
  ChildProcess &operator=(ChildProcess &&) = delete;
  ~ChildProcess();

  pid_t pid() const { return Pid; }
  /// A descriptor that poll() reports readable once the child has exited (a pidfd),
  /// or -1 where the kernel has none; then callers poll() in time slices.
  int exitFd() const { return ExitFd; }
  /// The wait status once the child has exited (non-blocking).
  std::optional<int> poll();
  /// Sends SIGKILL and reaps the child.
  void kill();
  /// "exited with code 1", "was killed by signal 9 (Killed)", from a wait status.
  static std::string describe(int Status);

private:
  explicit ChildProcess(pid_t Pid);
  pid_t Pid = -1;
  int ExitFd = -1;
  std::optional<int> Status;
};

} // namespace mlgo
