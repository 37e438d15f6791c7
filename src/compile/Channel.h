/// \file
/// The two FIFOs of one interactive compile, in a fresh directory that is removed
/// whatever happens. The compiler reads B.in (opening it first) and writes B.out.
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

  /// Tries once to open B.in for writing without blocking: true once the compiler has
  /// opened it for reading, false while it has not.
  llvm::Expected<bool> tryOpenToCompiler();
  /// Opens B.out for reading without blocking (works before the compiler opens it).
  llvm::Error openFromCompiler();
  int toCompiler() const { return ToFd; }
  int fromCompiler() const { return FromFd; }

private:
  explicit Channel(std::string Dir) : Dir(std::move(Dir)) {}
  std::string Dir;
  int ToFd = -1, FromFd = -1;
};

} // namespace mlgo
