/// \file
/// What an LLVM build needs besides the model class: the stand-in for TensorFlow's
/// xla_aot_runtime_src that TENSORFLOW_AOT_PATH points to, and a README with the steps
/// and cmake flags.
#pragma once

#include "OutputDirectory.h"
#include "policy/Policy.h"

#include <vector>

namespace mlgo {

/// The files, for an export written to \p ExportDir (absolute, as the README's commands
/// use it).
std::vector<GeneratedFile> renderBuildFiles(const Policy &P, llvm::StringRef ExportDir);

} // namespace mlgo
