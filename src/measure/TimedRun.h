/// \file
/// One run of a program, timed by the CPU seconds it and its children used (wait4's
/// rusage), and always reaped: an interrupt kills it before measure returns.
#pragma once

#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace mlgo {

struct RunSpec {
  std::vector<std::string> Argv; ///< Argv[0] is looked up in PATH
  std::string Directory;         ///< empty: the current directory
  std::string Stdin, Stdout, Stderr; ///< files; empty: /dev/null
};

struct RunOutcome {
  int Status = 0; ///< the wait status
  double CpuSeconds = 0;
};

llvm::Expected<RunOutcome> runTimed(const RunSpec &Spec);

/// The first non-empty line of the file at \p Path, for an error message ("" if none).
std::string firstLineOf(const std::string &Path);

} // namespace mlgo
