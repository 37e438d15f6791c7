/// \file
/// What trace record starts under Valgrind, checked first, and what Valgrind says about
/// it: Valgrind reports a program it cannot start in several raw lines of its own on the
/// terminal, and its later messages go to a log file that is summarized in one line.
#pragma once

#include "llvm/Support/Error.h"
#include <string>

namespace mlgo {

/// The path of \p Program (a path, or a name looked up in PATH), checked to be an
/// executable regular file whose #! interpreter, if any, is one too; else an
/// InputError naming it.
llvm::Expected<std::string> findRunnableProgram(llvm::StringRef Program);

/// A fresh file for Valgrind's --log-file, removed with this object.
class ValgrindLog {
public:
  static llvm::Expected<ValgrindLog> create();
  ValgrindLog(ValgrindLog &&Other) noexcept : Path(std::move(Other.Path)) { Other.Path.clear(); }
  ValgrindLog &operator=(ValgrindLog &&) = delete;
  ~ValgrindLog();

  const std::string &path() const { return Path; }
  /// Valgrind's first message, without its "==PID==" prefix, and how many lines
  /// followed it; empty if it logged nothing.
  std::string summary() const;

private:
  explicit ValgrindLog(std::string Path) : Path(std::move(Path)) {}
  std::string Path;
};

} // namespace mlgo
