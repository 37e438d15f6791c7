/// \file
/// The export stage: a policy for use outside mlgo-ra, as a policy file (json) or as
/// the C++ class llvm::RegAllocEvictModel that an LLVM 22 release build embeds (cpp).
#pragma once

#include "support/Json.h"

#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace mlgo {

enum class ExportFormat { Json, Cpp };

/// The files of a cpp export, relative to its directory.
inline constexpr const char *ModelHeaderFile = "RegAllocEvictModel.h";
inline constexpr const char *ModelSourceFile = "RegAllocEvictModel.cpp";
/// What the README has users compile ModelSourceFile into, beside it.
inline constexpr const char *ModelObjectFile = "RegAllocEvictModel.o";
/// What TENSORFLOW_AOT_PATH names: the stand-in for TensorFlow's package.
inline constexpr const char *TensorFlowStubDir = "tensorflow";

struct ExportOptions {
  std::string Policy; ///< a built-in name or a policy file
  ExportFormat Format = ExportFormat::Json;
  std::string Output; ///< the policy file (json) or the directory (cpp)
};

struct ExportResult {
  std::string PolicyName;
  ExportFormat Format = ExportFormat::Json;
  std::string Output;
  std::vector<std::string> Files; ///< for cpp, relative to Output
  size_t Parameters = 0;          ///< 0 for the default policy
  Json toJSON() const;
};

/// Loads Opts.Policy and writes it to Opts.Output, whole or not at all. The default
/// policy has no network, so it exports only as json (cpp is an InputError); an
/// output that cannot be written is an InputError about it.
llvm::Expected<ExportResult> runExport(const ExportOptions &Opts);

} // namespace mlgo
