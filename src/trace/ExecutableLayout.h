/// \file
/// How a linked ELF binary is laid out in memory once loaded: whether it is
/// position-independent, its entry point and its executable segments. Importers use
/// it to place the binary in a trace that has no module map of its own.
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <vector>

namespace mlgo {

struct ExecutableLayout {
  struct Range {
    uint64_t Begin, End; ///< link-time addresses, End exclusive
  };
  /// ET_DYN (a PIE, loaded at a bias chosen at run time) rather than ET_EXEC.
  bool PositionIndependent = false;
  uint64_t Entry = 0;                ///< e_entry, link-time
  std::vector<Range> Executable;     ///< the PT_LOAD segments with PF_X

  /// Reads the ELF header and program headers of \p Path (64-bit little-endian).
  static llvm::Expected<ExecutableLayout> load(llvm::StringRef Path);
};

} // namespace mlgo
