/// \file
/// mlgo-ra replay: options → ReplayOptions → a ReplayContext that predicts one variant or
/// compares two (baseline and candidate), printed as text or JSON; --fail-if-slower for
/// CI, --markdown for its job summary, --explain for why (ReplayReport.h).
#include "EngineOption.h"
#include "Commands.h"
#include "CoreProfileOption.h"
#include "CpuOption.h"
#include "ExitCode.h"
#include "NumberOptions.h"
#include "ReplayReport.h"
#include "compile/PolicyVariants.h"
#include "replay/Replay.h"
#include "replay/fast/AutoShard.h"
#include "replay/fast/Sampling.h"
#include "support/CacheDirectory.h"
#include "support/InputFile.h"
#include "support/OutputFile.h"
#include "support/Printable.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <fmt/format.h>
#include <map>
#include <optional>
#include <thread>

namespace mlgo {
namespace {

struct ReplayFlags {
  ReplayOptions Options;
  std::string Code, Baseline, Candidate;
  std::string Corpus, Clang = "clang-22";
  /// Compiled variant directory → the policy the user named.
  std::map<std::string, std::string> PolicyOf;
  /// How to show \p Code: a compiled policy as "policy NAME".
  std::string shown(const std::string &Code) const {
    auto It = PolicyOf.find(Code);
    return It == PolicyOf.end() ? Code : "policy " + It->second;
  }
  std::string Sample = "auto"; ///< auto, none or LENGTH/EVERY
  std::string CoreProfile = "auto"; ///< --core-profile
  bool Fast = false;
  std::optional<double> FailIfSlower;
  /// --native-cycles: the baseline's native run, for the whole run's speedup.
  std::optional<double> NativeCycles;
  size_t Top = 10;
  bool Json = false;
  std::string Markdown; ///< where to write the Markdown report; empty: nowhere
};

/// Writes \p Text to --markdown's file, if one was given.
llvm::Error writeMarkdown(const ReplayFlags &F, const std::string &Text) {
  return F.Markdown.empty() ? llvm::Error::success()
                            : writeFileAtomically(F.Markdown, Text);
}

/// Which replay ran, and how much MCA simulated for it.
/// "flow engine", and what it was told to use.
std::string describeEngine(const ReplayResult &R) {
  return fmt::format("{} engine{}{}", engineName(R.Engine),
                     R.CoreProfile.empty() ? "" : ", core profile " + R.CoreProfile,
                     R.LoadDependences ? ", with the trace's load dependences" : "");
}

std::string describeMode(const ReplayResult &R) {
  if (R.Exact && R.Chunks > 1)
    return fmt::format("exact (every instruction simulated, {}; in {} chunks, each "
                       "warmed up on {} instructions per thread)",
                       describeEngine(R), R.Chunks, R.ChunkWarmUp);
  if (R.Exact)
    return fmt::format("exact (every instruction simulated, {})", describeEngine(R));
  std::string Shard;
  if (!R.Sampling.empty())
    Shard = fmt::format("; sampled {} events{}, standard error {:.0f} cycles", R.Sampling,
                        R.AutoShardError ? " (long trace)" : "", R.SamplingError);
  else if (R.AutoShardError)
    Shard = fmt::format("; the whole trace, as a {} shard's standard error was {:.3f} "
                        "points of speedup, above {}",
                        AutoShard::name(), 100 * *R.AutoShardError,
                        AutoShard::MaxErrorPoints);
  return fmt::format("fast ({} of {} instructions simulated, where the code differs from "
                     "the reference's{}; {})",
                     R.Simulated, R.Instructions, Shard, describeEngine(R));
}

std::string describeModeled(const ReplayResult &R) {
  return fmt::format("{:.2f}% of {} traced instructions (--unmapped {}: {} unmapped "
                     "replayed, {} skipped{}{}){}",
                     100 * R.modeledShare(), R.TraceInstructions,
                     unmappedPolicyName(R.Unmapped), R.UnmappedReplayed, R.UnmappedSkipped,
                     R.FoldedIterations ? fmt::format(", {} rep iterations folded",
                                                      R.FoldedIterations)
                                        : "",
                     R.PartialSegments ? fmt::format(", {} partial segments",
                                                     R.PartialSegments)
                                       : "",
                     R.Engine == EngineKind::Flow
                         ? fmt::format(", {} branches mispredicted", R.Mispredicted)
                         : "");
}

void printMismatches(const ReplayResult &R, llvm::StringRef Role) {
  for (const FunctionMismatch &M : R.Mismatches)
    llvm::outs() << fmt::format("  {} runs the baseline's {} ({})\n", Role,
                                printable(M.Function), printable(M.Reason));
}

int replayOne(const ReplayFlags &F, ReplayContext &Context) {
  auto R = Context.predict(F.Code);
  if (!R)
    return reportError(R.takeError());
  R->Code = F.shown(R->Code);
  if (llvm::Error E = writeMarkdown(F, resultMarkdown(*R, F.Options.Trace, F.Top)))
    return reportError(std::move(E));
  if (F.Json) {
    Json Out = R->toJSON();
    if (F.NativeCycles)
      Out["whole_run"] = {{"native_cycles", *F.NativeCycles},
                          {"modeled_share", WholeRun{*F.NativeCycles}.modeledShare(
                                                double(R->Cycles))}};
    auto Text = serializeJson(Out, "stdout");
    if (!Text)
      return reportError(Text.takeError());
    llvm::outs() << *Text << "\n";
    return Success;
  }
  llvm::outs() << fmt::format("replay of {} on {}\n  cpu        {} ({})\n"
                              "  predicted  {} cycles, {} instructions, IPC {:.3f}\n"
                              "  modeled    {}\n  mode       {}\n",
                              F.Options.Trace, R->Code, R->CPU, R->Triple, R->Cycles,
                              R->Instructions, R->ipc(), describeModeled(*R),
                              describeMode(*R));
  if (F.NativeCycles)
    llvm::outs() << fmt::format("  whole run  {:.4g} cycles natively: the engine models "
                                "{:.1f}% of them\n",
                                *F.NativeCycles,
                                100 * WholeRun{*F.NativeCycles}.modeledShare(double(R->Cycles)));
  printMismatches(*R, "the variant");
  llvm::outs() << "  cycles by function:\n";
  for (size_t I = 0; I < R->Functions.size() && I < F.Top; ++I) {
    const FunctionCost &C = R->Functions[I];
    llvm::outs() << fmt::format("    {:14}  {:6.2f}%  {}\n", C.Cycles,
                                R->Cycles ? 100.0 * C.Cycles / R->Cycles : 0,
                                printable(C.Function));
  }
  return Success;
}

/// With --native-cycles, the whole run's predicted speedup and the share the engine models.
std::string wholeRunLine(const ReplayComparison &C) {
  if (!C.Run)
    return "";
  return fmt::format("  whole run  predicted speedup {:+.3f}% (the engine models {:.1f}% of "
                     "the baseline's {:.4g} native cycles)\n",
                     100 * C.runSpeedup(),
                     100 * C.Run->modeledShare(double(C.Baseline.Cycles)),
                     C.Run->NativeCycles);
}

int compare(const ReplayFlags &F, ReplayContext &Context) {
  auto C = Context.compare(F.Baseline, F.Candidate);
  if (!C)
    return reportError(C.takeError());
  C->Baseline.Code = F.shown(C->Baseline.Code);
  C->Candidate.Code = F.shown(C->Candidate.Code);
  if (F.NativeCycles)
    C->Run = WholeRun{*F.NativeCycles};
  // The check is on the whole run's speedup where the native run is known.
  double Percent = 100 * C->runSpeedup();
  bool Regressed = F.FailIfSlower && -Percent > *F.FailIfSlower;
  Verdict V{F.FailIfSlower, Regressed, Regressed ? Failure : Success};
  if (llvm::Error E = writeMarkdown(F, comparisonMarkdown(*C, V, F.Options.Trace, F.Top)))
    return reportError(std::move(E));
  if (F.Json) {
    Json Out = C->toJSON();
    if (F.FailIfSlower)
      Out["fail_if_slower_percent"] = *F.FailIfSlower;
    Out["regressed"] = Regressed;
    auto Text = serializeJson(Out, "stdout");
    if (!Text)
      return reportError(Text.takeError());
    llvm::outs() << *Text << "\n";
  } else {
    llvm::outs() << fmt::format(
        "replay of {} ({}, {})\n  baseline   {}: {} cycles, IPC {:.3f}\n"
        "  candidate  {}: {} cycles, IPC {:.3f}\n  modeled    {}\n  mode       {}\n"
        "  predicted speedup {:+.3f}%{} ({})\n{}",
        F.Options.Trace, C->Baseline.CPU, C->Baseline.Triple, C->Baseline.Code,
        C->Baseline.Cycles, C->Baseline.ipc(), C->Candidate.Code, C->Candidate.Cycles,
        C->Candidate.ipc(), describeModeled(C->Candidate), describeMode(C->Candidate),
        100 * C->speedup(),
        C->Candidate.Sampling.empty()
            ? ""
            : fmt::format(" ± {:.3f} (one standard error of the trace shard)",
                          100 * C->speedupError()),
        Percent > 0 ? "candidate faster" : Percent < 0 ? "candidate slower" : "no change",
        wholeRunLine(*C));
    printMismatches(C->Candidate, "the candidate");
    llvm::outs() << fmt::format("  {:>14}  {:>14}  {:>12}  function (largest change first)\n",
                                "baseline", "candidate", "delta");
    std::vector<FunctionDelta> Deltas = C->deltas();
    for (size_t I = 0; I < Deltas.size() && I < F.Top; ++I)
      llvm::outs() << fmt::format("  {:14}  {:14}  {:+12}  {}\n", Deltas[I].BaselineCycles,
                                  Deltas[I].CandidateCycles, Deltas[I].delta(),
                                  printable(Deltas[I].Function));
    if (C->Explanations)
      llvm::outs() << "  why: the functions and blocks that changed most (c/run: cycles a "
                      "run of the block, over the trace)\n"
                   << explainText(*C->Explanations, "  ");
  }
  if (Regressed) {
    llvm::errs() << fmt::format("mlgo-ra: the candidate is predicted {:.3f}% slower{}, "
                                "more than --fail-if-slower {}%\n",
                                -Percent, C->Run ? " over the whole run" : "",
                                *F.FailIfSlower);
    return Failure;
  }
  return Success;
}

/// With --corpus, compiles the policies named as code into variants under \p WorkDir.
/// -j bounds compiles as it bounds the simulating threads; 0 means one per core.
llvm::Error compilePolicyArguments(ReplayFlags &F, llvm::StringRef WorkDir) {
  PolicyVariantsOptions Compiling;
  Compiling.Clang = F.Clang;
  Compiling.CacheDir = F.Options.CacheDir;
  Compiling.PlanJobs = Compiling.Jobs =
      F.Options.Jobs ? F.Options.Jobs : std::max(1u, std::thread::hardware_concurrency());
  auto PolicyOf = compileNamedPolicies({&F.Code, &F.Baseline, &F.Candidate}, F.Corpus,
                                       Compiling, WorkDir);
  if (!PolicyOf)
    return PolicyOf.takeError();
  F.PolicyOf = std::move(*PolicyOf);
  return llvm::Error::success();
}

int replay(ReplayFlags &F) {
  if (!F.Markdown.empty())
    if (llvm::Error E = checkOutputOutsideInputs(
            F.Markdown, {F.Options.Trace, F.Code, F.Baseline, F.Candidate, F.Corpus}))
      return reportError(std::move(E));
  llvm::SmallString<128> WorkDir;
  if (std::error_code EC = llvm::sys::fs::createUniqueDirectory("mlgo-ra-replay", WorkDir))
    return reportError(stageError("cannot create a temporary directory: {}", EC.message()));
  int Code = [&] {
    if (llvm::Error E = compilePolicyArguments(F, WorkDir))
      return reportError(std::move(E));
    auto Context = ReplayContext::create(F.Options);
    if (!Context)
      return reportError(Context.takeError());
    return F.Code.empty() ? compare(F, **Context) : replayOne(F, **Context);
  }();
  llvm::sys::fs::remove_directories(WorkDir);
  return Code;
}

} // namespace

CommandHandle addReplayCommand(CLI::App &Parent) {
  auto Flags = std::make_shared<ReplayFlags>();
  CLI::App *Cmd = Parent.add_subcommand(
      "replay",
      "Predict cycles by refilling a segment trace with a variant's code and simulating it "
      "with LLVM MCA; with --baseline and --candidate, the predicted speedup of one over "
      "the other.");
  Cmd->add_option("--trace", Flags->Options.Trace, "The .bbtrace (from 'mlgo-ra trace')")
      ->required();
  CLI::Option *Code = Cmd->add_option(
      "--code", Flags->Code,
      "The variant to replay: a binary, a directory of objects, or a policy (--corpus)");
  CLI::Option *Baseline = Cmd->add_option(
      "--baseline", Flags->Baseline,
      "The baseline: the traced binary, a directory of objects, or a policy (--corpus)");
  CLI::Option *Candidate = Cmd->add_option(
      "--candidate", Flags->Candidate,
      "The candidate: a binary, a directory of objects, or a policy (--corpus)");
  Code->excludes(Baseline)->excludes(Candidate);
  Cmd->add_option("--corpus", Flags->Corpus,
                  "A corpus or subset: --code, --baseline and --candidate may then name a "
                  "policy (built-in or file), compiled from it first (as 'mlgo-ra compile')");
  Cmd->add_option("--clang", Flags->Clang, "The compiler for --corpus")->capture_default_str();
  Baseline->needs(Candidate);
  Candidate->needs(Baseline);
  addCpuOption(Cmd, Flags->Options.CPU,
               "The CPU the engine models: a name as LLVM spells it (of --mtriple's target, "
               "else the host's), 'native' for this host's (skylake if LLVM has no "
               "scheduling model for it), or 'help' to list them");
  Cmd->add_option("--mtriple", Flags->Options.Triple,
                  "The target triple (default: the code's)");
  Cmd->add_option("--on-cfg-mismatch", Flags->Options.OnCfgMismatch,
                  "What to do with traced functions the variant lacks or whose blocks "
                  "changed: fail, or run the baseline's code for them")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, CfgMismatchPolicy>{
              {"fail", CfgMismatchPolicy::Fail}, {"baseline", CfgMismatchPolicy::UseBaseline}},
          CLI::ignore_case))
      ->default_str("fail");
  Cmd->add_option("--unmapped", Flags->Options.Unmapped,
                  "Instructions traced outside mapped code: skip them, or replay their "
                  "recorded bytes")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, UnmappedPolicy>{{"skip", UnmappedPolicy::Skip},
                                                {"replay", UnmappedPolicy::Replay}},
          CLI::ignore_case))
      ->default_str("skip");
  addEngineOption(Cmd, Flags->Options.Engine,
                  "The CPU model: 'flow' times the instruction stream in one pass from the "
                  "scheduling model's data (x86-64 out-of-order cores; models the stack "
                  "engine and store-to-load forwarding), 'mca' simulates LLVM MCA's "
                  "pipeline (the reference; any CPU with a scheduling model; slow)");
  CLI::Option *Exact = Cmd->add_flag(
      "--exact", Flags->Options.Exact,
      "Simulate every traced instruction of each variant (the default with --engine flow) "
      "instead of only where its code differs from the traced binary's or the baseline's");
  CLI::Option *Fast = Cmd->add_flag(
      "--fast", Flags->Fast,
      "Fast replay: simulate only where a variant's code differs from the traced "
      "binary's or the baseline's (the default with --engine mca)");
  Fast->excludes(Exact);
  Cmd->add_option("--cache-dir", Flags->Options.CacheDir,
                  "Where the exact replays that fast replay compares with, and the middle "
                  "ends of --corpus compiles, are kept (default: $XDG_CACHE_HOME/mlgo-ra "
                  "or ~/.cache/mlgo-ra)");
  Cmd->add_option("--warm-up", Flags->Options.Spans.WarmUp,
                  "Fast replay: instructions simulated before a span's first difference")
      ->capture_default_str()
      ->check(wholeNumber());
  Cmd->add_option("--settle", Flags->Options.Spans.Settle,
                  "Fast replay: instructions of same code that end a span")
      ->capture_default_str()
      ->check(wholeNumber());
  Cmd->add_flag("--stack-engine", Flags->Options.StackEngine,
                "Model x86's stack engine: push, pop, call and ret do not wait for one "
                "another's stack pointer (closer to measured speedups; fast replay's "
                "--warm-up and --settle then default to 4096; with the flow engine, "
                "which always models it, --warm-up to 16384)");
  addCoreProfileOption(Cmd, Flags->CoreProfile);
  Cmd->add_flag("--load-dependences", Flags->Options.LoadDependences,
                "Flow engine: a data load waits for older stores' addresses only if the "
                "trace's load dependences (trace record keeps them) say it read what a "
                "recent store wrote; without, every load off the stack waits. "
                "Experimental: bench/accuracy ranks worse with it (see README)");
  CLI::Option *Sample = Cmd->add_option(
      "--sample", Flags->Sample,
      "Fast replay of a trace shard: differences from the reference are simulated only "
      "in windows of LENGTH events, one in each period of EVERY events, weighted "
      "EVERY/LENGTH (LENGTH/EVERY, e.g. 1024/16384), and the estimate's standard error reported. "
      "'auto': on a trace of at least 64 x 16384 events, the 1024/16384 shard, kept if "
      "its standard error is at most 0.0125 points of speedup, else the whole trace. "
      "'none': the whole trace")
      ->capture_default_str();
  Cmd->add_option("--chunk", Flags->Options.Chunks.Instructions,
                  "Exact replay: a trace of at least twice N instructions is cut into chunks "
                  "of about N, simulated on -j threads, each chunk warmed up on the "
                  "instructions before it (the cycles do not depend on -j); 0: the whole "
                  "trace on one core per traced thread")
      ->capture_default_str()
      ->check(wholeNumber());
  Cmd->add_option("--chunk-warm-up", Flags->Options.Chunks.WarmUp,
                  "Exact replay in chunks: each chunk's cores first simulate, uncounted, "
                  "their thread's events within this many trace instructions before it")
      ->capture_default_str()
      ->check(wholeNumber());
  Cmd->add_option("-j,--jobs", Flags->Options.Jobs,
                  "Threads simulating the chunks of an exact replay or the spans where code "
                  "differs, and compiles run at once for --corpus (default: one per core)")
      ->check(wholeNumber());
  Cmd->add_option("--native-cycles", Flags->NativeCycles,
                  "The cycles a native run of the baseline takes (measure's "
                  "baseline_cycles, of the run the trace recorded): the engine models a "
                  "share of them (loads that hit L1, code that is fetched), and the speedup "
                  "of the whole run is predicted too, the cycles it does not model taken "
                  "as the same for every variant; --fail-if-slower then checks that one")
      ->check(finiteNumber(0, true));
  Cmd->add_option("--fail-if-slower", Flags->FailIfSlower,
                  "Exit 1 if the candidate is predicted slower than the baseline by more "
                  "than PCT percent (of the whole run with --native-cycles)")
      ->needs(Candidate)
      ->check(finiteNumber(0));
  Cmd->add_option("--top", Flags->Top, "How many functions to list")
      ->capture_default_str()
      ->check(wholeNumber());
  Cmd->add_flag("--json", Flags->Json, "Print the result as JSON on stdout");
  Cmd->add_option("--markdown", Flags->Markdown,
                  "Also write the result as Markdown to FILE (the verdict, for a CI job "
                  "summary or a review comment)");
  CLI::Option *Explain =
      Cmd->add_option("--explain", Flags->Options.Explain.Functions,
                      "Explain the N functions with the largest predicted change: their "
                      "blocks that changed most, baseline and candidate side by side, with "
                      "cycles per instruction and the spills and reloads added or removed "
                      "(replays the whole trace, every instruction simulated)")
          ->expected(0, 1)
          ->default_str("3")
          ->check(CLI::Range(1u, 1000u))
          ->needs(Candidate);
  Explain->excludes(Fast);
  Cmd->add_option("--explain-blocks", Flags->Options.Explain.Blocks,
                  "With --explain: how many of each function's blocks to show, those whose "
                  "cycles changed most first")
      ->capture_default_str()
      ->check(CLI::Range(1u, 100000u))
      ->needs(Explain);
  Cmd->callback([Cmd, Code] {
    if (!Code->count() && !Cmd->count("--baseline"))
      throw CLI::RequiredError("--code or --baseline with --candidate");
  });
  Sample->excludes(Exact);
  Sample->excludes(Explain);
  return {Cmd, [Flags, Cmd] {
            if (auto Exit = resolveCpuOption(Flags->Options.CPU, Flags->Options.Triple))
              return *Exit;
            if (llvm::Error E = resolveCoreProfileOption(Flags->CoreProfile, Flags->Options.CPU,
                                                         Flags->Options.Core))
              return reportError(std::move(E));
            if (llvm::Error E = parseSampleOption(Flags->Sample, "--sample",
                                                  Flags->Options.Spans,
                                                  Flags->Options.AutoShard))
              return reportError(std::move(E));
            // The flow engine replays whole traces unless told otherwise: it is fast
            // enough, and fast replay's spans only add their error.
            if (Flags->Options.Engine == EngineKind::Flow && !Flags->Fast &&
                !Cmd->count("--sample"))
              Flags->Options.Exact = true;
            // Cycles per instruction come from whole replays.
            if (Flags->Options.Explain.Functions)
              Flags->Options.Exact = true;
            // The stack engine lets the pipeline run further ahead: spans must be
            // longer to converge (docs/fast-replay.md).
            if ((Flags->Options.StackEngine || Flags->Options.Engine == EngineKind::Flow) &&
                !Cmd->count("--warm-up") && !Cmd->count("--settle")) {
              Flags->Options.Spans.WarmUp = Flags->Options.Spans.Settle =
                  SpanSettings::StackEngineSpan;
              if (Flags->Options.Engine == EngineKind::Flow)
                Flags->Options.Spans.WarmUp = SpanSettings::FlowWarmUp;
            }
            if (Flags->Options.CacheDir.empty())
              Flags->Options.CacheDir = defaultCacheDirectory();
            return replay(*Flags);
          }};
}

} // namespace mlgo
