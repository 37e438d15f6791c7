/// \file
/// The functions a corpus module defines, named as the trace names them: "name" for a
/// global function (or alias), "<source file name>:name" for a local one, because the
/// linker's STT_FILE symbol is the base name of the module's source_filename.
#pragma once

#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace mlgo {

struct DefinedFunction {
  std::string Key;  ///< as CodeFunction::key() names it in the binary
  std::string Name; ///< the IR name, what a compile keeps
  bool Local;
};

/// Reads \p BitcodePath lazily (no function bodies) and lists the functions and
/// function aliases it defines, leaving out available_externally copies.
llvm::Expected<std::vector<DefinedFunction>> readDefinedFunctions(llvm::StringRef BitcodePath);

} // namespace mlgo
