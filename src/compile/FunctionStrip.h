/// \file
/// Turning every function a trace does not need into a declaration, so that per-policy
/// code generation only spends time on the traced functions. Their code is unchanged:
/// code generation works function by function, and use-list order is preserved.
#pragma once

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

namespace mlgo {

struct StripResult {
  size_t Kept = 0;     ///< function definitions left in the module
  size_t Stripped = 0; ///< definitions turned into declarations
  /// Requested functions that the module does not define.
  std::vector<std::string> Missing;
};

/// Reads the bitcode module \p Input, keeps the definitions named in \p Keep (IR names;
/// functions an alias or ifunc refers to are kept too, as the IR requires, and an alias
/// of a defined function is defined), declares the
/// rest, and writes the result to \p Output atomically; writes nothing when some of
/// \p Keep is missing.
llvm::Expected<StripResult> keepOnlyFunctions(llvm::StringRef Input,
                                              const llvm::StringSet<> &Keep,
                                              llvm::StringRef Output);

} // namespace mlgo
