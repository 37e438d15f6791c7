/// \file
/// Variant compiles: a corpus (or a subset of it) compiled with one policy into objects
/// with BB address maps. Planning is done once: each module's arguments (its own
/// sanitized command plus the flags every variant needs) and, on the fast path, its
/// cached middle end reduced to the traced functions. Each policy then only runs code
/// generation, all modules in parallel.
#pragma once

#include "CompileMemo.h"
#include "InteractiveCompile.h"
#include "support/Json.h"

#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace mlgo {

struct PlannedModule {
  std::string Name;                   ///< the corpus module
  std::vector<std::string> Arguments; ///< after "-cc1", input included, "-o" not
  size_t Functions = 0;               ///< compiled functions; 0: all of them
  bool Reused = false;                ///< its middle end came from the cache
};

struct VariantPlan {
  std::string Corpus;
  /// Only code generation per policy (a cached middle end); else whole compiles.
  bool FastPath = false;
  std::vector<PlannedModule> Modules;
  double Seconds = 0; ///< spent planning (middle ends)
  Json toJSON() const;
};

struct PlanOptions {
  std::string Clang = "clang-22";
  /// The middle-end cache; empty plans whole compiles (no fast path).
  std::string CacheDir;
  /// Compile only the functions in the corpus's subset_functions.json, if it has one.
  bool TracedOnly = true;
  unsigned Jobs = 1;
  double TimeoutSeconds = 0;
  bool ShowProgress = false;
};

/// Plans variant compiles of every module of the corpus in \p CorpusDirectory.
/// The fast path needs a cache directory and a corpus without ThinLTO.
llvm::Expected<VariantPlan> planVariant(llvm::StringRef CorpusDirectory,
                                        const PlanOptions &Opts);

struct VariantOptions {
  std::string Clang = "clang-22";
  unsigned Jobs = 1;
  double TimeoutSeconds = 0;
  /// Write each module's observations and decisions beside its object
  /// (<object>.decisions.jsonl).
  bool RecordDecisions = false;
  bool ShowProgress = false;
  /// Reuse and remember compiles (sized for the plan's modules); not with
  /// RecordDecisions, which needs every compile to run.
  CompileMemo *Memo = nullptr;
};

struct CompiledModule {
  std::string Name;
  std::string Object; ///< relative to the variant directory
  uint64_t Decisions = 0;
  double Seconds = 0;
  bool Reused = false; ///< the memo had its object: no compiler ran
};

struct VariantResult {
  std::string Directory;
  std::string Policy;
  bool FastPath = false;
  std::vector<CompiledModule> Modules;
  uint64_t Decisions = 0;
  size_t Reused = 0; ///< modules whose object came from the memo
  double Seconds = 0;
  Json toJSON() const;
};

inline constexpr const char *VariantDescriptionFile = "variant.json";

/// Compiles every planned module with \p P into \p Output (one object per module, at
/// the module's name, plus variant.json). The directory appears whole or not at all;
/// an existing one is replaced only if it holds a variant.
llvm::Expected<VariantResult> compileVariant(const Policy &P, const VariantPlan &Plan,
                                             llvm::StringRef Output,
                                             const VariantOptions &Opts);

} // namespace mlgo
