/// \file
/// subset: read which functions each module defines, resolve every traced function to
/// the modules that could provide it, solve the set cover, write the subset corpus.
#include "Subset.h"
#include "ModuleFunctions.h"
#include "SetCover.h"
#include "corpus/Corpus.h"
#include "support/Error.h"
#include "support/InputFile.h"
#include "support/OutputFile.h"
#include "support/ParallelWork.h"
#include "support/Progress.h"
#include "trace/TraceProfile.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

namespace mlgo {

namespace {

/// Which modules define a function, and under which IR name.
class FunctionIndex {
public:
  void add(uint32_t Module, const DefinedFunction &F) {
    ByKey[F.Key].push_back({Module, F.Name});
    if (F.Local)
      LocalsByName[F.Key.substr(F.Key.rfind(':') + 1)].push_back({Module, F.Name});
  }

  struct Provider {
    uint32_t Module;
    std::string Name;
  };

  /// The modules that can provide the traced function \p Key. A name the compiler
  /// derived from a module's function ("f.constprop.0", "f.cold", "f.llvm.123" after
  /// ThinLTO promoted a local) resolves to that function.
  std::vector<Provider> resolve(llvm::StringRef Key) const {
    if (auto It = ByKey.find(Key); It != ByKey.end())
      return It->second;
    size_t Colon = Key.rfind(':');
    llvm::StringRef File = Colon == llvm::StringRef::npos ? "" : Key.take_front(Colon + 1);
    llvm::StringRef Name = Colon == llvm::StringRef::npos ? Key : Key.drop_front(Colon + 1);
    llvm::StringRef Base = Name.take_until([](char C) { return C == '.'; });
    if (Base.empty() || Base == Name)
      return {};
    if (auto It = ByKey.find((File + Base).str()); It != ByKey.end())
      return It->second;
    if (File.empty()) // a promoted local: any module's static function of that name
      if (auto It = LocalsByName.find(Base); It != LocalsByName.end())
        return It->second;
    return {};
  }

private:
  llvm::StringMap<std::vector<Provider>> ByKey, LocalsByName;
};

llvm::Error copyModuleFile(const Corpus &From, const Corpus &To, llvm::StringRef Module,
                           llvm::StringRef Suffix) {
  std::string Source = modulePath(From, Module, Suffix);
  auto Buffer = readRegularFile(Source);
  if (!Buffer)
    return Buffer.takeError();
  return writeFileAtomically(modulePath(To, Module, Suffix), (*Buffer)->getBuffer());
}

llvm::Error writeSubsetCorpus(const Corpus &C, const SubsetResult &R,
                              const SubsetOptions &Opts) {
  Corpus Out{Opts.Output, C.HasThinLTO, {}, C.GlobalCommandOverride};
  for (const SubsetModule &M : R.Modules) {
    Out.Modules.push_back(M.Name);
    std::vector<const char *> Suffixes = {".bc"};
    if (C.GlobalCommandOverride.empty())
      Suffixes.push_back(".cmd");
    if (C.HasThinLTO)
      Suffixes.push_back(".thinlto.bc");
    for (const char *Suffix : Suffixes)
      if (llvm::Error E = copyModuleFile(C, Out, M.Name, Suffix))
        return E;
  }
  Json Functions = R.toJSON();
  Functions["trace"] = Opts.Trace;
  Functions["corpus"] = Opts.Corpus;
  if (llvm::Error E = writeFileAtomically(Opts.Output + "/" + SubsetFunctionsFile,
                                          dumpJson(Functions) + "\n"))
    return E;
  return writeCorpusDescription(Out); // last: its presence means the subset is whole
}

} // namespace

llvm::Expected<SubsetResult> runSubset(const SubsetOptions &Opts) {
  auto C = loadCorpus(Opts.Corpus);
  if (!C)
    return C.takeError();
  if (llvm::Error E = checkOutputOutsideInputs(Opts.Output, {Opts.Corpus, Opts.Trace}))
    return E;
  auto Profile = profileTrace(Opts.Trace);
  if (!Profile)
    return Profile.takeError();

  // Every module's functions, read in parallel; errors are reported in module order.
  std::vector<std::vector<DefinedFunction>> Defined(C->Modules.size());
  {
    Progress Bar("subset: reading modules", C->Modules.size(), Opts.ShowProgress);
    if (llvm::Error E = runInParallel(C->Modules.size(), 0, [&](size_t I) -> llvm::Error {
          auto Functions = readDefinedFunctions(modulePath(*C, C->Modules[I], ".bc"));
          Bar.advance();
          if (!Functions)
            return Functions.takeError();
          Defined[I] = std::move(*Functions);
          return llvm::Error::success();
        }))
      return E;
  }
  FunctionIndex Index;
  for (uint32_t M = 0; M < Defined.size(); ++M)
    for (const DefinedFunction &F : Defined[M])
      Index.add(M, F);

  // One set-cover element per traced function some module defines.
  SubsetResult R;
  R.CorpusModules = C->Modules.size();
  std::vector<std::vector<uint32_t>> Candidates;
  std::vector<std::vector<FunctionIndex::Provider>> Providers;
  std::vector<uint64_t> Weights;
  for (uint32_t F = 0; F < Profile->Header.Functions.size(); ++F) {
    if (!Profile->Executed[F])
      continue;
    ++R.TracedFunctions;
    R.MappedInstructions += Profile->FunctionInstructions[F];
    const std::string &Key = Profile->Header.Functions[F].Key;
    std::vector<FunctionIndex::Provider> P = Index.resolve(Key);
    if (P.empty()) {
      R.Uncovered.push_back(Key);
      continue;
    }
    std::vector<uint32_t> Modules;
    for (const auto &Provider : P)
      Modules.push_back(Provider.Module);
    std::sort(Modules.begin(), Modules.end());
    Modules.erase(std::unique(Modules.begin(), Modules.end()), Modules.end());
    Candidates.push_back(std::move(Modules));
    Providers.push_back(std::move(P));
    R.CoveredInstructions += Profile->FunctionInstructions[F];
  }
  SetCoverResult Cover = solveSetCover(Candidates, C->Modules.size());
  R.Exact = Cover.Exact;
  R.GreedyBound = Cover.GreedyBound;

  // Each function goes to the first chosen module that defines it.
  std::vector<int64_t> Slot(C->Modules.size(), -1);
  for (uint32_t M : Cover.Sets) {
    Slot[M] = R.Modules.size();
    R.Modules.push_back({C->Modules[M], {}});
  }
  for (const auto &P : Providers)
    for (const auto &Provider : P)
      if (Slot[Provider.Module] >= 0) {
        auto &Functions = R.Modules[Slot[Provider.Module]].Functions;
        if (std::find(Functions.begin(), Functions.end(), Provider.Name) == Functions.end())
          Functions.push_back(Provider.Name);
        break;
      }
  for (SubsetModule &M : R.Modules)
    std::sort(M.Functions.begin(), M.Functions.end());
  NewOutputDirectory Output(Opts.Output);
  if (llvm::Error E = writeSubsetCorpus(*C, R, Opts))
    return E;
  Output.keep();
  return R;
}

Json SubsetResult::toJSON() const {
  Json Chosen = Json::array();
  for (const SubsetModule &M : Modules)
    Chosen.push_back({{"name", M.Name}, {"functions", M.Functions}});
  Json Out = {{"format", "mlgo-ra.subset"},
              {"version", 1},
              {"corpus_modules", CorpusModules},
              {"modules", Chosen},
              {"traced_functions", TracedFunctions},
              {"uncovered_functions", Uncovered},
              {"mapped_instructions", MappedInstructions},
              {"covered_instructions", CoveredInstructions},
              {"coverage", MappedInstructions ? double(CoveredInstructions) /
                                                    MappedInstructions
                                              : 1.0},
              {"method", Exact ? "exact" : "greedy"}};
  if (!Exact)
    Out["greedy_bound"] = GreedyBound;
  return Out;
}

} // namespace mlgo
