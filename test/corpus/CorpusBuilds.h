/// \file
/// Real builds for the corpus tests: small C/C++ objects compiled by clang-22 with the
/// flags a corpus needs, and the ThinLTO variants of the same.
#pragma once

#include <string>

namespace mlgo::test {

/// -O2 -Xclang -fembed-bitcode=all -fbasic-block-address-map
extern const char *const EmbedFlags;

/// Compiles \p Source (written to Dir/SourceName) into Dir/Object; fails the test if
/// clang fails.
void compile(const std::string &Dir, const std::string &SourceName,
             const std::string &Source, const std::string &Object,
             const std::string &Flags = EmbedFlags);

/// A directory with a.o, sub/b.o (C) and c.o (C++) built with EmbedFlags, plus asm.o
/// (from assembly) and plain.o (no embedded bitcode).
std::string makeSmallBuild();

} // namespace mlgo::test
