/// \file
/// Compiling a planned variant with one policy: every module in parallel into a
/// temporary directory, which replaces the output directory only when all succeeded.
#include "Variant.h"
#include "corpus/Corpus.h"
#include "support/Error.h"
#include "support/Json.h"
#include "support/OutputFile.h"
#include "support/ParallelWork.h"
#include "support/Progress.h"
#include "support/Stopwatch.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <chrono>

namespace mlgo {

namespace {

/// The object of \p Module inside a variant directory: replay loads every *.o.
std::string objectName(llvm::StringRef Module) {
  return Module.ends_with(".o") ? Module.str() : Module.str() + ".o";
}

/// The files of the earlier variant in \p Output: variant.json and, for every module
/// it lists, the object and its decision log. Fails if variant.json is unreadable.
llvm::Expected<llvm::StringSet<>> earlierVariantFiles(llvm::StringRef Output) {
  std::string Description = Output.str() + "/" + VariantDescriptionFile;
  auto Earlier = readJsonFile(Description);
  if (!Earlier)
    return Earlier.takeError();
  llvm::StringSet<> Files;
  Files.insert(VariantDescriptionFile);
  std::optional<Json> Modules = findJsonField<Json>(*Earlier, "modules");
  if (Modules && Modules->is_array())
    for (const Json &M : *Modules)
      if (std::optional<std::string> Object = findJsonField<std::string>(M, "object")) {
        Files.insert(*Object);
        Files.insert(*Object + ".decisions.jsonl");
      }
  return Files;
}

/// Makes room for the finished variant at \p Output: nothing there, an empty
/// directory, or an earlier variant, which is removed. A directory holding anything
/// else (a user's own files beside an earlier variant's) is refused, never emptied.
llvm::Error clearOutput(llvm::StringRef Output) {
  namespace fs = llvm::sys::fs;
  if (!fs::exists(Output))
    return llvm::Error::success();
  if (!fs::is_directory(Output))
    return inputError(Output, "exists and is not a directory");
  std::error_code EC;
  if (fs::directory_iterator(Output, EC) == fs::directory_iterator())
    return fs::remove_directories(Output)
               ? stageError("{}: cannot replace it", Output.str())
               : llvm::Error::success();
  if (!fs::exists(Output + "/" + VariantDescriptionFile))
    return inputError(Output, "exists and does not hold a variant ({} is missing); "
                              "not replacing it", VariantDescriptionFile);
  auto Ours = earlierVariantFiles(Output);
  if (!Ours)
    return Ours.takeError();
  // Directory symlinks are not followed: what is behind one is not ours either.
  for (fs::recursive_directory_iterator It(Output, EC, /*follow_symlinks=*/false), End;
       It != End && !EC; It.increment(EC)) {
    if (It->type() == fs::file_type::directory_file)
      continue;
    llvm::StringRef Relative(It->path());
    Relative.consume_front(Output);
    Relative = Relative.ltrim('/');
    if (!Ours->contains(Relative))
      return inputError(Output, "holds {}, which is not a file of the earlier variant; "
                                "not replacing the directory", Relative.str());
  }
  if (EC)
    return inputError(Output, "cannot list: {}", EC.message());
  if (std::error_code EC = fs::remove_directories(Output))
    return stageError("{}: cannot replace: {}", Output.str(), EC.message());
  return llvm::Error::success();
}

/// A compiler that exits 0 may still have written no object, or something else (IR
/// text, a wrapper's output): replay needs an ELF relocatable object per module.
llvm::Error checkObject(llvm::StringRef Path, llvm::StringRef Module,
                        llvm::StringRef Clang) {
  std::string Compiler = llvm::sys::path::filename(Clang).str();
  if (!llvm::sys::fs::exists(Path))
    return stageError("module '{}': {} exited 0 but wrote no object", Module.str(),
                      Compiler);
  auto Binary = llvm::object::createBinary(Path);
  if (!Binary) {
    llvm::consumeError(Binary.takeError());
    return stageError("module '{}': {} wrote no object file but something else",
                      Module.str(), Compiler);
  }
  auto *Object = llvm::dyn_cast<llvm::object::ObjectFile>(Binary->getBinary());
  if (!Object || !Object->isELF() || !Object->isRelocatableObject())
    return stageError("module '{}': {} wrote no ELF relocatable object", Module.str(),
                      Compiler);
  return llvm::Error::success();
}

llvm::Expected<CompiledModule> compileModule(const Policy &P, const VariantPlan &Plan,
                                             size_t Index, llvm::StringRef Directory,
                                             const VariantOptions &Opts) {
  const PlannedModule &Module = Plan.Modules[Index];
  CompiledModule Out;
  Out.Name = Module.Name;
  Out.Object = objectName(Module.Name);
  std::string Object = Directory.str() + "/" + Out.Object;
  if (std::error_code EC =
          llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Object)))
    return stageError("{}: cannot create: {}", Object, EC.message());
  CompileMemo *Memo = Opts.RecordDecisions ? nullptr : Opts.Memo;
  if (Memo)
    if (auto Earlier = Memo->find(Index, P)) {
      Out.Decisions = Earlier->Decisions.size();
      Out.Reused = true;
      if (llvm::Error E = writeFileAtomically(Object, Earlier->Object))
        return E;
      return Out;
    }

  CompileOptions Options;
  Options.Clang = Opts.Clang;
  Options.Args = Module.Arguments;
  Options.Args.insert(Options.Args.end(), {"-o", commandPath(Object)});
  Options.TimeoutSeconds = Opts.TimeoutSeconds;
  if (Opts.RecordDecisions)
    Options.RecordDecisions = Object + ".decisions.jsonl";
  auto Recorded = std::make_shared<RecordedCompile>();
  Recorded->UsedAdvisor = P.usesAdvisor();
  if (Memo)
    Options.OnDecision = [&](const DecisionEvent &E) {
      Recorded->Observations.push_back(E.Features);
      Recorded->Decisions.push_back(E.Decision);
    };
  auto Result = compileWithPolicy(P, Options);
  if (!Result)
    return Result.takeError();
  if (llvm::Error E = checkObject(Object, Module.Name, Opts.Clang))
    return E;
  Out.Decisions = Result->Decisions;
  Out.Seconds = Result->Seconds;
  if (Memo) {
    auto Bytes = llvm::MemoryBuffer::getFile(Object);
    if (!Bytes)
      return stageError("{}: cannot read: {}", Object, Bytes.getError().message());
    Recorded->Object = (*Bytes)->getBuffer().str();
    Memo->add(Index, std::move(Recorded));
  }
  return Out;
}

} // namespace

Json VariantResult::toJSON() const {
  Json List = Json::array();
  for (const CompiledModule &M : Modules)
    List.push_back({{"name", M.Name},
                    {"object", M.Object},
                    {"decisions", M.Decisions},
                    {"seconds", M.Seconds},
                    {"reused", M.Reused}});
  return {{"format", "mlgo-ra.variant"},
          {"version", 1},
          {"policy", Policy},
          {"fast_path", FastPath},
          {"decisions", Decisions},
          {"reused_objects", Reused},
          {"seconds", Seconds},
          {"modules", List}};
}

llvm::Expected<VariantResult> compileVariant(const Policy &P, const VariantPlan &Plan,
                                             llvm::StringRef Output,
                                             const VariantOptions &Opts) {
  auto Start = std::chrono::steady_clock::now();
  std::string Temporary = temporaryPathBeside(Output);
  if (std::error_code EC = llvm::sys::fs::create_directories(Temporary))
    return inputError(Output, "cannot create the variant directory: {}", EC.message());
  auto Discard = [&](llvm::Error E) -> llvm::Error {
    llvm::sys::fs::remove_directories(Temporary);
    return E;
  };

  VariantResult Result;
  Result.Directory = Output.str();
  Result.Policy = P.name();
  Result.FastPath = Plan.FastPath;
  Result.Modules.resize(Plan.Modules.size());
  Progress Bar("compile: " + P.name(), Plan.Modules.size(), Opts.ShowProgress);
  if (llvm::Error E = runInParallel(Plan.Modules.size(), Opts.Jobs, [&](size_t I) -> llvm::Error {
        auto Compiled = compileModule(P, Plan, I, Temporary, Opts);
        Bar.advance();
        if (!Compiled)
          return Compiled.takeError();
        Result.Modules[I] = std::move(*Compiled);
        return llvm::Error::success();
      }))
    return Discard(std::move(E));
  Bar.finish();

  for (const CompiledModule &M : Result.Modules) {
    Result.Decisions += M.Decisions;
    Result.Reused += M.Reused;
  }
  Result.Seconds = secondsSince(Start);
  if (llvm::Error E = writeJsonFile(Temporary + "/" + VariantDescriptionFile, Result.toJSON()))
    return Discard(std::move(E));
  if (llvm::Error E = clearOutput(Output))
    return Discard(std::move(E));
  if (std::error_code EC = llvm::sys::fs::rename(Temporary, Output))
    return Discard(stageError("{}: cannot write the variant: {}", Output.str(), EC.message()));
  return Result;
}

} // namespace mlgo
