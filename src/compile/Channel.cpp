/// \file
/// Creating, opening and removing the FIFOs.
#include "Channel.h"

#include "support/Error.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mlgo {

llvm::Expected<Channel> Channel::create(const std::string &Parent) {
  llvm::SmallString<128> Template(Parent);
  if (Template.empty())
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Template);
  llvm::sys::path::append(Template, "mlgo-ra-channel-XXXXXX");
  std::string Path = Template.str().str(); // mkdtemp needs a terminated, mutable copy
  if (!mkdtemp(Path.data()))
    return stageError("cannot create a channel directory in {}: {}",
                      llvm::sys::path::parent_path(Template).str(), std::strerror(errno));
  Channel C(std::move(Path));
  for (const char *Suffix : {".in", ".out"}) {
    std::string Fifo = C.base() + Suffix;
    if (mkfifo(Fifo.c_str(), 0600) != 0)
      return stageError("cannot create the FIFO {}: {}", Fifo, std::strerror(errno));
  }
  return C;
}

Channel::Channel(Channel &&Other) noexcept
    : Dir(std::move(Other.Dir)), ToFd(Other.ToFd), FromFd(Other.FromFd) {
  Other.Dir.clear();
  Other.ToFd = Other.FromFd = -1;
}

Channel::~Channel() {
  for (int Fd : {ToFd, FromFd})
    if (Fd >= 0)
      close(Fd);
  if (Dir.empty())
    return;
  for (const std::string &Path : {base() + ".in", base() + ".out", stderrPath()})
    unlink(Path.c_str());
  rmdir(Dir.c_str());
}

llvm::Error Channel::open() {
  std::string In = base() + ".in", Out = base() + ".out";
  ToFd = ::open(In.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (ToFd < 0)
    return stageError("cannot open the FIFO {}: {}", In, std::strerror(errno));
  FromFd = ::open(Out.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (FromFd < 0)
    return stageError("cannot open the FIFO {}: {}", Out, std::strerror(errno));
  return llvm::Error::success();
}

} // namespace mlgo
