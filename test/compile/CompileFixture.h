/// \file
/// Real modules for the compile tests: C compiled to bitcode by clang-22, and the cc1
/// arguments that turn one into an object.
#pragma once

#include "InteractiveCompile.h"

#include <string>
#include <vector>

namespace mlgo::test {

/// A C file with a few functions under register pressure (loops, calls).
extern const char *const PressureSource;

/// Writes \p Source to <Dir>/<Name>.c and compiles it to <Dir>/<Name>.bc (-O2).
std::string compileToBitcode(const std::string &Dir, const std::string &Name,
                             const std::string &Source, const std::string &Flags = "");

/// cc1 arguments compiling \p Bitcode to \p Object (-O2, x86-64).
std::vector<std::string> objectArgs(const std::string &Bitcode, const std::string &Object,
                                    bool FunctionSections = false);

/// Options running the test's clang-22 with channels under \p Dir.
CompileOptions optionsFor(const std::string &Dir, std::vector<std::string> Args);

/// Files left in \p Dir (channel directories must not be).
std::vector<std::string> listDir(const std::string &Dir);

} // namespace mlgo::test
