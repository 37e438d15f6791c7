#include "WaitStatus.h"

#include <cstring>
#include <fmt/format.h>
#include <sys/wait.h>

namespace mlgo {

std::string describeWaitStatus(int Status) {
  if (WIFEXITED(Status))
    return fmt::format("exited with code {}", WEXITSTATUS(Status));
  if (WIFSIGNALED(Status))
    return fmt::format("was killed by signal {} ({})", WTERMSIG(Status),
                       strsignal(WTERMSIG(Status)));
  return fmt::format("ended with wait status {}", Status);
}

} // namespace mlgo
