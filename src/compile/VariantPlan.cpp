/// \file
/// Planning variant compiles: arguments per module and, on the fast path, the cached
/// middle end of each module reduced to its traced functions.
#include "MiddleEndCache.h"
#include "Variant.h"
#include "VariantCommand.h"
#include "corpus/Corpus.h"
#include "subset/Subset.h"
#include "support/Error.h"
#include "support/ParallelWork.h"
#include "support/Progress.h"
#include "support/Stopwatch.h"
#include "support/Warning.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"
#include <chrono>
#include <cstdlib>
#include <optional>

namespace mlgo {

namespace {

/// Per module name, the functions to compile (absent: all of them).
using FunctionLists = llvm::StringMap<std::vector<std::string>>;

llvm::Expected<std::optional<FunctionLists>> tracedFunctions(llvm::StringRef CorpusDir,
                                                             const Corpus &C) {
  auto Subset = readSubsetFunctions(CorpusDir);
  if (!Subset)
    return Subset.takeError();
  if (!*Subset)
    return std::nullopt;
  FunctionLists Lists;
  for (SubsetModule &M : **Subset)
    Lists[M.Name] = std::move(M.Functions);
  for (const std::string &Module : C.Modules)
    if (!Lists.count(Module))
      return inputError(CorpusDir.str() + "/" + SubsetFunctionsFile,
                        "lists no functions for module '{}'", Module);
  return Lists;
}

/// The fast path's input for \p Module: its cached middle end, reduced to the traced
/// functions if \p Traced lists them; none if the cache could not keep it (the module
/// is then compiled whole).
llvm::Expected<std::optional<std::string>>
cachedInput(const Corpus &C, const std::string &Module, const FunctionLists *Traced,
            MiddleEndCache &Cache, const PlanOptions &Opts, PlannedModule &Planned) {
  auto Optimized = Cache.optimized(modulePath(C, Module, ".bc"), Planned.Arguments,
                                   Opts.TimeoutSeconds, Planned.Reused);
  if (!Optimized || !*Optimized || !Traced)
    return Optimized;
  const std::vector<std::string> &Functions = Traced->find(Module)->second;
  auto Reduced = Cache.traced(**Optimized, Functions, modulePath(C, Module, ".bc"));
  if (Reduced && *Reduced)
    Planned.Functions = Functions.size();
  return Reduced;
}

/// Plans one module: its arguments, and its middle end on the fast path.
llvm::Expected<PlannedModule> planModule(const Corpus &C, const std::string &Module,
                                         const FunctionLists *Traced,
                                         MiddleEndCache *Cache, const PlanOptions &Opts) {
  auto Command = sanitizedModuleCommand(C, Module);
  if (!Command)
    return Command.takeError();
  PlannedModule Planned;
  Planned.Name = Module;
  Planned.Arguments = variantArguments(*Command);
  if (Cache) {
    auto Input = cachedInput(C, Module, Traced, *Cache, Opts, Planned);
    if (!Input)
      return Input.takeError();
    if (*Input) {
      Planned.Arguments.insert(Planned.Arguments.end(), {"-emit-obj", "-x", "ir",
                                                         commandPath(**Input),
                                                         "-disable-llvm-passes"});
      return Planned;
    }
  }
  if (llvm::Error E = checkModuleBitcode(modulePath(C, Module, ".bc")))
    return E;
  // The sanitizer dropped the recorded action: a variant is objects.
  Planned.Arguments.push_back("-emit-obj");
  std::vector<std::string> Inputs = moduleInputArguments(C, Module);
  Planned.Arguments.insert(Planned.Arguments.end(), Inputs.begin(), Inputs.end());
  return Planned;
}

} // namespace

Json VariantPlan::toJSON() const {
  Json List = Json::array();
  for (const PlannedModule &M : Modules)
    List.push_back({{"name", M.Name}, {"functions", M.Functions}, {"reused", M.Reused}});
  return {{"corpus", Corpus}, {"fast_path", FastPath}, {"seconds", Seconds}, {"modules", List}};
}

llvm::Expected<VariantPlan> planVariant(llvm::StringRef CorpusDirectory,
                                        const PlanOptions &Opts) {
  auto Start = std::chrono::steady_clock::now();
  auto C = loadCorpus(CorpusDirectory);
  if (!C)
    return C.takeError();
  std::optional<FunctionLists> Traced;
  if (Opts.TracedOnly) {
    auto Lists = tracedFunctions(CorpusDirectory, *C);
    if (!Lists)
      return Lists.takeError();
    Traced = std::move(*Lists);
  }
  // ThinLTO backends import from the index while they optimize: no separate middle end.
  std::optional<MiddleEndCache> Cache;
  if (!Opts.CacheDir.empty() && !C->HasThinLTO) {
    auto Opened = MiddleEndCache::open(Opts.CacheDir, Opts.Clang);
    if (!Opened)
      return Opened.takeError();
    // The cache only saves time: one that cannot be written is a warning.
    if (llvm::Error E = Opened->checkWritable())
      warn("--cache-dir: {}; compiling without the middle-end cache",
           llvm::toString(std::move(E)));
    else
      Cache.emplace(std::move(*Opened));
  }

  VariantPlan Plan;
  Plan.Corpus = CorpusDirectory.str();
  Plan.FastPath = Cache.has_value();
  Plan.Modules.resize(C->Modules.size());
  Progress Bar("compile: middle ends", C->Modules.size(), Opts.ShowProgress && Cache);
  if (llvm::Error E = runInParallel(C->Modules.size(), Opts.Jobs, [&](size_t I) -> llvm::Error {
        auto Planned = planModule(*C, C->Modules[I], Traced ? &*Traced : nullptr,
                                  Cache ? &*Cache : nullptr, Opts);
        Bar.advance();
        if (!Planned)
          return Planned.takeError();
        Plan.Modules[I] = std::move(*Planned);
        return llvm::Error::success();
      }))
    return E;
  Bar.finish();
  Plan.Seconds = secondsSince(Start);
  return Plan;
}

} // namespace mlgo
