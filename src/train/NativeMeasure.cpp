#include "NativeMeasure.h"
#include "compile/Variant.h"
#include "measure/MeasureReport.h"
#include "measure/TimedRun.h"
#include "policy/Policy.h"
#include "support/Error.h"
#include "support/InputFile.h"
#include "support/OutputFile.h"
#include "support/ShellWords.h"
#include "support/Stopwatch.h"
#include "support/WaitStatus.h"

#include "llvm/Support/FileSystem.h"
#include <algorithm>
#include <chrono>
#include <fmt/format.h>

namespace mlgo {
namespace {

struct Build {
  std::string Name, Policy, Directory, Program;
};

/// Compiles \p B's policy into its directory and links it.
llvm::Error build(const Build &B, const VariantPlan &Plan, const NativeMeasureOptions &Opts) {
  auto P = loadPolicy(B.Policy);
  if (!P)
    return P.takeError();
  VariantOptions Variant;
  Variant.Clang = Opts.Clang;
  Variant.Jobs = Opts.Jobs;
  Variant.TimeoutSeconds = Opts.TimeoutSeconds;
  if (auto R = compileVariant(*P, Plan, B.Directory, Variant); !R)
    return R.takeError();
  auto Linked = runTimed({{"/bin/sh", "-c", Opts.Link}, B.Directory, "",
                         B.Directory + "/link.out", B.Directory + "/link.err"});
  if (!Linked)
    return Linked.takeError();
  if (Linked->Status != 0)
    return stageError("{}: the link command {} (see {}/link.err)", B.Name,
                      describeWaitStatus(Linked->Status), B.Directory);
  if (!llvm::sys::fs::can_execute(B.Program))
    return stageError("{}: the link command made no program {}", B.Name, B.Program);
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::vector<std::string>> nativeRunArguments(const std::string &Run) {
  std::vector<std::string> Words = splitShellWords(Run);
  if (Words.empty() || Words.front() != "{program}")
    return inputError("--measure-run", "'{}': must be {{program}} followed by the "
                                       "program's arguments (it runs without a shell)",
                      Run);
  for (const std::string &W : Words)
    if (W == "|" || W == "&&" || W == ";" || W == ">" || W == "<")
      return inputError("--measure-run", "'{}': '{}' is shell syntax; the program runs "
                                         "without a shell",
                        Run, W);
  Words.erase(Words.begin());
  return Words;
}

llvm::Expected<Json> measureNatively(const NativeMeasureOptions &Opts,
                                     llvm::ArrayRef<NativeCandidate> Candidates,
                                     llvm::StringRef Directory) {
  auto Start = std::chrono::steady_clock::now();
  auto Args = nativeRunArguments(Opts.Run);
  if (!Args)
    return Args.takeError();
  if (Opts.Mode != "processes" && Opts.Mode != "paired")
    return inputError("--measure-mode", "'{}': must be processes or paired", Opts.Mode);
  if (std::error_code EC = llvm::sys::fs::create_directories(Directory))
    return stageError("{}: cannot create: {}", Directory, EC.message());
  PlanOptions Planning;
  Planning.Clang = Opts.Clang;
  Planning.CacheDir = Opts.CacheDir;
  Planning.TracedOnly = false; // the whole program is linked
  Planning.Jobs = Opts.Jobs;
  Planning.TimeoutSeconds = Opts.TimeoutSeconds;
  auto Plan = planVariant(Opts.Corpus, Planning);
  if (!Plan)
    return Plan.takeError();

  std::vector<Build> Builds;
  Builds.push_back({"default", "default", "", ""});
  for (const NativeCandidate &C : Candidates)
    Builds.push_back({C.Name, C.Policy, "", ""});
  for (Build &B : Builds) {
    B.Directory = (Directory + "/" + B.Name).str();
    B.Program = B.Directory + "/" + Opts.Program;
    // An earlier measurement's build (a variant, linked and run): replaced whole.
    if (llvm::sys::fs::exists(B.Directory + "/" + VariantDescriptionFile))
      if (std::error_code EC = llvm::sys::fs::remove_directories(B.Directory))
        return stageError("{}: cannot remove the earlier build: {}", B.Directory,
                          EC.message());
    if (llvm::Error E = build(B, *Plan, Opts))
      return E;
  }

  MeasureOptions Measuring;
  Measuring.Baseline = {"default", Builds.front().Program};
  for (const Build &B : llvm::ArrayRef(Builds).drop_front())
    Measuring.Candidates.push_back({B.Name, B.Program});
  if (Opts.Mode == "paired") {
    // The builds' objects, linked again into one process by the link command.
    Measuring.Mode = MeasureMode::Paired;
    Measuring.Link = Opts.Link;
    Measuring.Baseline.Path = Builds.front().Directory;
    for (size_t I = 1; I < Builds.size(); ++I)
      Measuring.Candidates[I - 1].Path = Builds[I].Directory;
  } else {
    Measuring.Mode = MeasureMode::Processes;
  }
  Measuring.Args = std::move(*Args);
  Measuring.Precision = Opts.Precision;
  Measuring.TimeBudget = Opts.TimeBudget;
  Measuring.Clang = Opts.Clang;
  auto Measured = measure(Measuring);
  if (!Measured)
    return Measured.takeError();
  Json Record = measurementJson(*Measured);
  for (Json &B : Record["builds"])
    for (const Build &Built : Builds)
      if (B["name"] == Built.Name)
        B["policy"] = Built.Policy;
  Record["seconds"] = secondsSince(Start);
  Json Native = {{"run", Opts.Run}};
  Native.update(Record);
  return Json{{"native", std::move(Native)}};
}

llvm::Error chooseNatively(Json &Record, const std::string &ChosenPath) {
  Json &Native = Record["native"];
  const Json *Chosen = nullptr;
  for (const Json &B : Native["builds"]) {
    std::string Name = B.value("name", std::string());
    if (Name == "control" || Name == "start" || B.value("verdict", "") != "faster")
      continue;
    if (!Chosen || B.value("speedup", 0.0) > Chosen->value("speedup", 0.0))
      Chosen = &B;
  }
  if (!Chosen) {
    Native["choice"] = {{"name", "default"},
                        {"why", "no policy on the shortlist measured faster above noise"}};
    llvm::sys::fs::remove(ChosenPath);
    return llvm::Error::success();
  }
  Native["choice"] = {{"name", (*Chosen)["name"]},     {"policy", (*Chosen)["policy"]},
                      {"speedup", (*Chosen)["speedup"]}, {"low", (*Chosen)["low"]},
                      {"high", (*Chosen)["high"]}};
  std::string Policy = (*Chosen)["policy"].get<std::string>();
  auto Text = readRegularFile(Policy);
  if (!Text)
    return Text.takeError();
  return writeFileAtomically(ChosenPath, (*Text)->getBuffer());
}

} // namespace mlgo
