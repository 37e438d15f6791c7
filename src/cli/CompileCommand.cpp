/// \file
/// mlgo-ra compile: plan the corpus's variant compiles (cached middle ends), then
/// compile it with one policy into a variant directory that replay reads.
#include "Commands.h"
#include "ExitCode.h"
#include "NumberOptions.h"
#include "compile/Variant.h"
#include "policy/Policy.h"
#include "support/CacheDirectory.h"
#include "support/InputFile.h"
#include "support/Interrupt.h"

#include "llvm/Support/raw_ostream.h"
#include <fmt/format.h>
#include <thread>

namespace mlgo {
namespace {

struct CompileFlags {
  std::string Corpus, Policy, Output;
  PlanOptions Plan;
  VariantOptions Variant;
  bool Full = false, AllFunctions = false, Json = false;
};

int compile(CompileFlags &F) {
  installInterruptHandler();
  auto Fail = [](llvm::Error E) { return reportStageError(std::move(E)); };
  if (llvm::Error E = checkOutputOutsideInputs(F.Output, {F.Corpus, policyFile(F.Policy)}))
    return Fail(std::move(E));
  auto P = loadPolicy(F.Policy);
  if (!P)
    return Fail(P.takeError());
  F.Plan.Clang = F.Variant.Clang;
  F.Plan.Jobs = F.Variant.Jobs;
  F.Plan.TimeoutSeconds = F.Variant.TimeoutSeconds;
  F.Plan.TracedOnly = !F.AllFunctions;
  F.Plan.ShowProgress = F.Variant.ShowProgress = !F.Json;
  if (F.Full)
    F.Plan.CacheDir.clear();
  else if (F.Plan.CacheDir.empty())
    F.Plan.CacheDir = defaultCacheDirectory();
  auto Plan = planVariant(F.Corpus, F.Plan);
  if (!Plan)
    return Fail(Plan.takeError());
  auto R = compileVariant(*P, *Plan, F.Output, F.Variant);
  if (!R)
    return Fail(R.takeError());
  if (F.Json) {
    Json Out = R->toJSON();
    Out["plan"] = Plan->toJSON();
    llvm::outs() << dumpJson(Out) << "\n";
    return Success;
  }
  size_t Reused = 0, Functions = 0;
  bool Subset = false;
  for (const PlannedModule &M : Plan->Modules) {
    Reused += M.Reused;
    Functions += M.Functions;
    Subset |= M.Functions != 0;
  }
  std::string Path =
      Plan->FastPath
          ? fmt::format("fast path: {} of {} middle ends cached, {:.2f} s; code generation "
                        "of {}",
                        Reused, Plan->Modules.size(), Plan->Seconds,
                        Subset ? fmt::format("{} traced functions", Functions)
                               : std::string("every function"))
          : std::string("whole compiles");
  llvm::outs() << fmt::format("compile: {} module{} with policy {} into {}\n"
                              "  {}\n  {} eviction decisions, {:.2f} s\n",
                              R->Modules.size(), R->Modules.size() == 1 ? "" : "s",
                              R->Policy, R->Directory, Path, R->Decisions, R->Seconds);
  return Success;
}

} // namespace

CommandHandle addCompileCommand(CLI::App &Parent) {
  auto Flags = std::make_shared<CompileFlags>();
  CLI::App *Cmd = Parent.add_subcommand(
      "compile",
      "Compile a corpus with an eviction policy into a variant: one object per module, "
      "with BB address maps and the CFG-stabilizing flags, ready for replay. By default "
      "the fast path runs each module's middle end once (cached by content) and then "
      "only code generation, for the functions in subset_functions.json when the corpus "
      "is a subset.");
  Cmd->add_option("--corpus", Flags->Corpus, "The corpus, or a subset of it (from subset)")
      ->required();
  Cmd->add_option("--policy", Flags->Policy,
                  "A built-in policy (default, initial, poor) or a policy file")
      ->required();
  Cmd->add_option("-o,--output", Flags->Output,
                  "The variant directory (replaced if it holds an earlier variant)")
      ->required();
  Cmd->add_option("-j,--jobs", Flags->Variant.Jobs, "Compiles run at once")
      ->default_val(std::max(1u, std::thread::hardware_concurrency()))
      ->check(wholeNumber());
  Cmd->add_option("--timeout", Flags->Variant.TimeoutSeconds,
                  "Kill a compile after this many seconds (0: never)")
      ->default_val(600)
      ->check(finiteNumber(0));
  Cmd->add_option("--cache-dir", Flags->Plan.CacheDir,
                  "Where middle ends are cached (default: $XDG_CACHE_HOME/mlgo-ra or "
                  "~/.cache/mlgo-ra)");
  Cmd->add_flag("--full", Flags->Full,
                "Whole compiles from the corpus's bitcode: no middle-end cache");
  Cmd->add_flag("--all-functions", Flags->AllFunctions,
                "Compile every function, even in a subset corpus");
  Cmd->add_option("--clang", Flags->Variant.Clang, "The compiler")->default_val("clang-22");
  Cmd->add_flag("--record-decisions", Flags->Variant.RecordDecisions,
                "Write each module's observations and decisions beside its object "
                "(<object>.decisions.jsonl)");
  Cmd->add_flag("--json", Flags->Json, "Print the result as JSON on stdout");
  return {Cmd, [Flags] { return compile(*Flags); }};
}

} // namespace mlgo
