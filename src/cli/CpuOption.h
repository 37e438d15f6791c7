/// \file
/// --mcpu, as replay and train take it: "native" (the default) is the host's CPU as
/// LLVM names it, "help" lists the CPUs LLVM knows.
#pragma once

#include "llvm/ADT/StringRef.h"
#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace mlgo {

/// Adds --mcpu to \p Cmd, read into \p CPU (default "native"). "--mcpu help" prints the
/// CPUs of --mtriple's target (if \p Cmd has that option and it was given; else the
/// host's) and exits 0 at once, whatever else the command line lacks.
CLI::Option *addCpuOption(CLI::App *Cmd, std::string &CPU, const std::string &Help);

/// Turns "native" in \p CPU into the CPU to model (printing the one warning line of a
/// fallback) and checks a named CPU against \p Triple (empty: the host's). Returns an
/// exit code if the command must stop (the error printed), else nothing.
std::optional<int> resolveCpuOption(std::string &CPU, llvm::StringRef Triple);

} // namespace mlgo
