/// \file
/// The two FIFOs of one interactive compile, in a fresh directory that is removed
/// whatever happens. The compiler reads B.in (opening it first) and writes B.out.
/// The host holds B.in read-write, so a dead compiler never makes its writes fail:
/// the host learns of a death from the process, not from the FIFO.
#pragma once

#include "llvm/Support/Error.h"
#include <string>

namespace mlgo {

class Channel {
public:
  /// Creates <Parent>/mlgo-ra-channel-XXXXXX with FIFOs `advisor.in` and `advisor.out`.
  static llvm::Expected<Channel> create(const std::string &Parent);
  Channel(Channel &&Other) noexcept;
  Channel &operator=(Channel &&) = delete;
  /// Closes the host's ends and removes the FIFOs, the stderr file and the directory.
  ~Channel();

  const std::string &dir() const { return Dir; }
  /// The -regalloc-evict-interactive-channel-base value.
  std::string base() const { return Dir + "/advisor"; }
  std::string stderrPath() const { return Dir + "/stderr"; }

  /// Opens the host's ends without blocking: B.in read-write (on Linux this succeeds
  /// at once and lets the compiler's blocking open for reading return; fifo(7)), and
  /// B.out read-only (works before the compiler opens it for writing).
  llvm::Error open();
  int toCompiler() const { return ToFd; }
  int fromCompiler() const { return FromFd; }

private:
  explicit Channel(std::string Dir) : Dir(std::move(Dir)) {}
  std::string Dir;
  int ToFd = -1, FromFd = -1;
};

} // namespace mlgo
