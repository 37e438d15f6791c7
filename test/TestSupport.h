/// \file
/// Helpers shared by the test binaries: temporary directories, running real programs
/// (clang-22, mlgo-ra) and reading sections of the objects they produce.
#pragma once

#include "llvm/Support/Error.h"
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

namespace mlgo::test {

/// Unwraps an Expected, failing the test with the error's text (not just "false").
template <typename T> T requireOk(llvm::Expected<T> Value) {
  if (!Value)
    FAIL(llvm::toString(Value.takeError()));
  return std::move(*Value);
}

/// Fails the test with the error's text if \p E is an error.
void requireSuccess(llvm::Error E);

/// The message of an error that must have happened.
template <typename T> std::string requireError(llvm::Expected<T> Value) {
  if (Value)
    FAIL("expected an error, got success");
  return llvm::toString(Value.takeError());
}
std::string requireError(llvm::Error E);

/// A fresh directory under the build tree's test scratch area.
std::string makeTempDir(const std::string &Name);

struct CommandResult {
  int ExitCode;
  std::string Output; ///< stdout and stderr together
};

/// Runs \p Script with /bin/sh in \p Dir.
CommandResult runShell(const std::string &Script, const std::string &Dir = ".");

/// Compiles test/programs/<Name>.c with clang-22 -O2 -fbasic-block-address-map into
/// \p Dir; the binary's path.
std::string buildTestProgram(const std::string &Name, const std::string &Dir);

/// Writes \p Text to \p Path, creating directories.
void writeFile(const std::string &Path, const std::string &Text);
std::string readFile(const std::string &Path);
bool fileExists(const std::string &Path);

/// Every section whose name starts with \p Prefix, by name, with its bytes.
std::map<std::string, std::string> readSections(const std::string &ObjectPath,
                                                const std::string &Prefix);

/// Registers LLVM's targets, disassemblers and MCA components, as mlgo-ra's stages
/// that decode or simulate code need (the CLI does the same in main()).
void initializeTargets();

/// Quotes a word for /bin/sh.
std::string shellQuote(const std::string &Word);

/// Paths configured by CMake.
extern const char *const ClangPath;
extern const char *const SourceDir;
extern const char *const BinaryDir;

} // namespace mlgo::test
