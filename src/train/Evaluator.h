/// \file
/// The reward of a policy: compile the subset corpus with it (fast path, memo), replay
/// the trace on the variant, and compare with the `default` variant's predicted cycles
/// (computed once). Replays are cached by the content of the variant's objects: ES
/// perturbations often give every traced function the same code, and then no
/// simulation is needed.
#pragma once

#include "compile/PolicyVariants.h"
#include "replay/ReplayContext.h"
#include "replay/Replay.h"
#include "replay/WholeRun.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mlgo {

struct EvaluatorOptions {
  std::string Corpus; ///< the subset corpus (with subset_functions.json)
  /// The trace, the traced binary and fast replay's settings, read once for every
  /// evaluation; must outlive the Evaluator.
  ReplayContext *Replay = nullptr;
  std::string WorkDir;    ///< variants, removed after each replay
  std::string NamePrefix; ///< of this process's variants (several may share WorkDir)
  /// How variants are planned and compiled: PlanJobs for planning; evaluations
  /// themselves are single-threaded (Jobs), and share a compile memo (always on).
  PolicyVariantsOptions Compiling;
  /// Replay the `default` variant on creation (the reference of evaluate()'s speedups);
  /// not needed to only replay policies on other contexts (replayOn).
  bool ReplayDefault = true;
  /// The native run of the program: speedups are then the whole run's (WholeRun.h).
  std::optional<WholeRun> Run;
};

struct Evaluation {
  /// Predicted, over the `default` variant: of the whole run with EvaluatorOptions::Run.
  double Speedup = 0;
  uint64_t Cycles = 0; ///< predicted
  uint64_t Decisions = 0;
  double CompileSeconds = 0, ReplaySeconds = 0;
  bool CompileReused = false; ///< every object came from the compile memo
  bool ReplayReused = false;  ///< the same objects were replayed before
  /// With jobs (JobSet.h): each program's speedup, in the run's order; Speedup is their
  /// mean, Cycles and Decisions their sums.
  std::vector<double> JobSpeedups;
};

class Evaluator {
public:
  /// Plans the compiles and evaluates the `default` variant.
  static llvm::Expected<std::unique_ptr<Evaluator>> create(const EvaluatorOptions &Opts);

  /// Compiles and replays \p P; \p Name must be unique among concurrent calls.
  /// Thread-safe.
  llvm::Expected<Evaluation> evaluate(const Policy &P, llvm::StringRef Name);

  uint64_t defaultCycles() const { return DefaultCycles; }

  /// Compiles \p P once (with the memo) and replays it on each context of \p On, in
  /// order: traces of the same program other than the rewards' (validation: the whole
  /// trace, held-out inputs). Not cached: each replay runs.
  llvm::Expected<std::vector<ReplayResult>> replayOn(const Policy &P, llvm::StringRef Name,
                                                     llvm::ArrayRef<ReplayContext *> On);

private:
  Evaluator(EvaluatorOptions Opts, std::unique_ptr<PolicyVariants> Variants)
      : Opts(std::move(Opts)), Variants(std::move(Variants)) {}

  /// The predicted cycles of a compiled variant, replayed or from the cache.
  llvm::Expected<uint64_t> replayVariant(const VariantResult &Variant, bool &Reused);

  EvaluatorOptions Opts;
  std::unique_ptr<PolicyVariants> Variants; ///< with a compile memo
  uint64_t DefaultCycles = 0;
  std::mutex CacheLock;
  llvm::StringMap<uint64_t> ReplayedCycles; ///< by hash of the variant's objects
};

} // namespace mlgo
