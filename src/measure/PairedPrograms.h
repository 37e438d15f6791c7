/// \file
/// The programs of paired mode: every build's objects copied with their global symbols
/// renamed (main becomes main__v<i>, everything else gets the same suffix), linked with
/// the harness (PairedHarness.c) by the program's own link command. Each process gets a
/// layout of its own: the first the builds in their order, the second in the reverse,
/// then random orders with each build's code after a random multiple of the code shift
/// (below 4 KiB; its code sections aligned to the shift at most for it) and its data
/// after a random multiple of 64 bytes. A point of speed can come from where code sits
/// alone (branch predictor and cache sets, 4 KiB aliasing, with a shift of 16 also a
/// loop's place in its fetch line); over layouts that becomes noise the interval shows,
/// instead of a bias it hides.
#pragma once

#include "LinkCommand.h"

#include "llvm/Support/Error.h"
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace mlgo {

class PairedPrograms {
public:
  /// Copies and renames the objects of each build directory (the first the baseline;
  /// absolute paths) into \p Scratch (absolute), and compiles the harness with \p Clang.
  static llvm::Expected<PairedPrograms>
  prepare(const LinkCommand &Link, const std::vector<std::string> &Directories,
          const std::string &Scratch, const std::string &Clang, uint64_t CodeShift);

  /// Links layout \p Layout; returns the program's path. Its builds' order goes to
  /// \p Order (indices into the directories).
  llvm::Expected<std::string> link(unsigned Layout, std::mt19937_64 &Random,
                                   std::vector<size_t> &Order) const;

private:
  LinkCommand Link;
  std::string Scratch, Clang, Harness, Directory;
  uint64_t CodeShift = 64;
  /// Per build, its renamed objects as they are and with code aligned to the code
  /// shift at most.
  std::vector<std::vector<std::string>> Objects, ObjectsShifted;
};

} // namespace mlgo
