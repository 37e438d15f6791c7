/// \file
/// The subset stage: the smallest set of corpus modules that defines every function a
/// segment trace ran, written as a corpus of its own with the functions to compile.
#pragma once

#include "support/Json.h"

#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace mlgo {

inline constexpr const char *SubsetFunctionsFile = "subset_functions.json";

struct SubsetOptions {
  std::string Corpus;
  std::string Trace;
  std::string Output; ///< the subset corpus directory
  bool ShowProgress = true;
};

struct SubsetModule {
  std::string Name;
  /// IR names of the traced functions this module is chosen to provide.
  std::vector<std::string> Functions;
};

struct SubsetResult {
  std::vector<SubsetModule> Modules;
  size_t CorpusModules = 0;
  size_t TracedFunctions = 0;
  /// Traced functions that no module defines (e.g. from libraries without bitcode).
  std::vector<std::string> Uncovered;
  uint64_t MappedInstructions = 0;  ///< traced instructions in the binary's functions
  uint64_t CoveredInstructions = 0; ///< of those, in functions the subset provides
  bool Exact = false;               ///< the module count is proven minimal
  double GreedyBound = 1;           ///< else: at most this many times the minimum
  Json toJSON() const;
};

/// Chooses the modules and writes Opts.Output: the chosen modules' files, a
/// corpus_description.json and subset_functions.json (per module, the functions to
/// compile).
llvm::Expected<SubsetResult> runSubset(const SubsetOptions &Opts);

/// The functions to compile per module of the subset corpus in \p CorpusDirectory, or
/// std::nullopt when it has no subset_functions.json (a whole corpus).
llvm::Expected<std::optional<std::vector<SubsetModule>>>
readSubsetFunctions(llvm::StringRef CorpusDirectory);

} // namespace mlgo
