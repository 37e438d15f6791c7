/// \file
/// Variants of one corpus, policy after policy: the compiles are planned once (each
/// module's arguments and, on the fast path, its middle end), then each policy only
/// runs code generation. Train's evaluator compiles every perturbation this way;
/// `replay --corpus C --baseline default --candidate p.json` compiles each named policy
/// first, so comparing two policies (a CI check of a policy change) is one command.
#pragma once

#include "Variant.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <memory>
#include <string>

namespace mlgo {

struct PolicyVariantsOptions {
  std::string Clang = "clang-22";
  std::string CacheDir;   ///< the middle ends; empty: whole compiles
  unsigned PlanJobs = 1;  ///< compiles at once while planning
  unsigned Jobs = 1;      ///< modules compiled at once for each variant
  double TimeoutSeconds = 0;
  /// Reuse compiles across variants (CompileMemo): a policy that decides as another
  /// did on a module gets that module's object without a compile.
  bool Memo = false;
};

class PolicyVariants {
public:
  /// Plans the compiles of the corpus (or subset) in \p Corpus.
  static llvm::Expected<std::unique_ptr<PolicyVariants>>
  create(llvm::StringRef Corpus, const PolicyVariantsOptions &Opts);
  ~PolicyVariants();

  const VariantPlan &plan() const { return Plan; }

  /// Compiles \p P into \p Directory (compileVariant). Thread-safe.
  llvm::Expected<VariantResult> compile(const Policy &P, llvm::StringRef Directory);

  /// Compiles the policy \p NameOrPath (built-in or file) into a new directory under
  /// \p WorkDir and returns that directory.
  llvm::Expected<std::string> compileNamed(llvm::StringRef NameOrPath,
                                           llvm::StringRef WorkDir);

private:
  PolicyVariants(PolicyVariantsOptions Opts, VariantPlan Plan);
  PolicyVariantsOptions Opts;
  VariantPlan Plan;
  std::unique_ptr<CompileMemo> Memo;
};

/// Whether \p Argument names a policy rather than code: an existing file that is not
/// an ELF object (a policy file), or a built-in policy name that is not a path.
bool namesPolicy(llvm::StringRef Argument);

/// Compiles each of \p Arguments that names a policy into a variant of \p Corpus under
/// \p WorkDir, and replaces the argument with that variant's directory; returns the
/// policy each directory was compiled from. Without \p Corpus, a policy named is an
/// InputError naming it. The corpus is planned only if a policy is named.
llvm::Expected<std::map<std::string, std::string>>
compileNamedPolicies(llvm::ArrayRef<std::string *> Arguments, llvm::StringRef Corpus,
                     const PolicyVariantsOptions &Opts, llvm::StringRef WorkDir);

} // namespace mlgo
