/// \file
/// Finding the objects of a build: walk a directory, read compile_commands.json or a
/// linker parameter file, or collect a local ThinLTO link's saved bitcode.
#pragma once

#include "ExtractCorpus.h"

namespace mlgo {

struct ObjectInput {
  /// The file to read: an object, or for local ThinLTO the *.3.import.bc.
  std::string Path;
  /// The module name in the corpus (a contained relative path, e.g. "src/a.o").
  std::string Module;
  /// The directory relative paths in the object's command start from
  /// (-fthinlto-index= of distributed ThinLTO).
  std::string BaseDir;
};

/// Lists the inputs of \p Kind (not Auto) in a stable order, without duplicate modules.
llvm::Expected<std::vector<ObjectInput>> listObjectInputs(InputKind Kind,
                                                          const ExtractCorpusOptions &Opts);

} // namespace mlgo
