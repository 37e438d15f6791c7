/// \file
/// mlgo-ra train: options → TrainOptions → runTrain, a line per step (with the ETA),
/// and --report, which draws a run's reward curve. What it prints is
/// train/report/TrainReports.h's.
#include "EngineOption.h"
#include "Commands.h"
#include "CoreProfileOption.h"
#include "CpuOption.h"
#include "ExitCode.h"
#include "NumberOptions.h"
#include "replay/Replay.h"
#include "replay/fast/Sampling.h"
#include "support/CacheDirectory.h"
#include "support/InputFile.h"
#include "support/Interrupt.h"
#include "support/Stopwatch.h"
#include "train/Train.h"
#include "train/report/TrainReports.h"

#include "llvm/ADT/StringExtras.h"

#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <optional>
#include <thread>

namespace mlgo {
namespace {

struct TrainFlags {
  TrainOptions Options;
  std::string Report;
  std::string Sample = "auto"; ///< auto, none or LENGTH/EVERY
  std::string CoreProfile = "auto"; ///< --core-profile
  bool Json = false;
  bool Validate = false;
  bool IterationsGiven = false; ///< --iterations given: it bounds a --time-budget run too
  std::vector<std::string> HeldOut; ///< TRACE[:BINARY]
  std::vector<std::string> Jobs;    ///< [NAME=]CORPUS,TRACE,BINARY
  std::string JobFile;
};

/// The run directory may not lie inside a corpus nor be a trace or a binary: the
/// run's files would replace or join them.
llvm::Error checkRunOutsideInputs(const TrainOptions &Opts) {
  std::vector<std::string> Inputs;
  auto add = [&](const std::string &Path) {
    if (!Path.empty())
      Inputs.push_back(Path);
  };
  const TrainInputs &In = Opts.Inputs;
  for (const std::string *Path : {&In.Corpus, &In.Trace, &In.Baseline})
    add(*Path);
  for (const TrainProgram &P : In.Programs)
    for (const std::string *Path : {&P.Corpus, &P.Trace, &P.Baseline})
      add(*Path);
  for (const HeldOutTrace &H : Opts.Validation.HeldOut) {
    add(H.Trace);
    add(H.Binary);
  }
  return checkOutputOutsideInputs(Opts.Run.Output, Inputs);
}

/// The programs of --job-file, then of --job ([NAME=]CORPUS,TRACE,BINARY).
llvm::Error parseJobs(TrainFlags &F) {
  TrainInputs &In = F.Options.Inputs;
  if (F.Jobs.empty() && F.JobFile.empty())
    return llvm::Error::success();
  for (auto [Value, Name] : {std::pair{&In.Corpus, "--corpus"},
                             {&In.Trace, "--trace"},
                             {&In.Baseline, "--baseline"}})
    if (!Value->empty())
      return inputError(Name, "cannot be given with --job or --job-file (give the program "
                              "as a job)");
  if (In.NativeCycles)
    return inputError("--native-cycles", "cannot be given with --job or --job-file (give "
                                         "each job's)");
  if (!F.JobFile.empty()) {
    auto Read = readJobFile(F.JobFile);
    if (!Read)
      return Read.takeError();
    In.Programs = std::move(*Read);
  }
  for (const std::string &Given : F.Jobs) {
    llvm::StringRef Rest = Given, Name;
    size_t Equals = Rest.find('='), Comma = Rest.find(',');
    if (Equals != llvm::StringRef::npos && Equals < Comma) {
      Name = Rest.substr(0, Equals);
      Rest = Rest.substr(Equals + 1);
    }
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    Rest.split(Parts, ',');
    double Native = 0;
    if (Parts.size() < 3 || Parts.size() > 4 ||
        llvm::any_of(Parts, [](llvm::StringRef P) { return P.empty(); }) ||
        (Equals < Comma && Name.empty()) ||
        (Parts.size() == 4 && Parts[3].getAsDouble(Native)))
      return inputError("--job", "'{}' is not [NAME=]CORPUS,TRACE,BINARY[,NATIVE_CYCLES]",
                        Given);
    In.Programs.push_back(
        namedProgram(Name.str(), Parts[0].str(), Parts[1].str(), Parts[2].str()));
    if (Parts.size() == 4) {
      if (llvm::Error E = checkNativeCycles(Native, "--job"))
        return E;
      In.Programs.back().NativeCycles = Native;
    }
  }
  return checkProgramNames(In.Programs);
}

/// --validate-trace's TRACE[:BINARY]: the binary after the last colon.
llvm::Error parseHeldOut(TrainFlags &F) {
  for (const std::string &Given : F.HeldOut) {
    llvm::StringRef Trace = Given, Binary;
    if (size_t Colon = Trace.rfind(':'); Colon != llvm::StringRef::npos) {
      Binary = Trace.substr(Colon + 1);
      Trace = Trace.substr(0, Colon);
      if (Binary.empty())
        return inputError("--validate-trace", "'{}' is not TRACE[:BINARY]", Given);
    }
    if (Trace.empty())
      return inputError("--validate-trace", "'{}' is not TRACE[:BINARY]", Given);
    F.Options.Validation.HeldOut.push_back({Trace.str(), Binary.str()});
  }
  return llvm::Error::success();
}

int train(TrainFlags &F) {
  if (!F.Report.empty()) {
    auto Paths = writeTrainReport(F.Report);
    if (!Paths)
      return reportError(Paths.takeError());
    for (const std::string &Path : *Paths)
      llvm::outs() << "train: " << (llvm::StringRef(Path).ends_with(".svg")
                                        ? "reward curve"
                                        : "report")
                   << " written to " << Path << "\n";
    return Success;
  }
  if (llvm::Error E = parseJobs(F))
    return reportError(std::move(E));
  TrainInputs &In = F.Options.Inputs;
  EvaluationOptions &Evaluation = F.Options.Evaluation;
  for (auto [Value, Name] : {std::pair{&In.Corpus, "--corpus"},
                             {&In.Trace, "--trace"},
                             {&In.Baseline, "--baseline"},
                             {&F.Options.Run.Output, "--output"}})
    if (Value->empty() && (Name == std::string("--output") || In.Programs.empty()))
      return reportError(inputError(Name, "is required (unless --report, or with jobs)"));
  if (auto Exit = resolveCpuOption(Evaluation.CPU, ""))
    return *Exit;
  if (llvm::Error E = resolveCoreProfileOption(F.CoreProfile, Evaluation.CPU, Evaluation.Core))
    return reportError(std::move(E));
  if (llvm::Error E =
          parseSampleOption(F.Sample, "--sample", Evaluation.Spans, Evaluation.AutoShard))
    return reportError(std::move(E));
  if (llvm::Error E = parseHeldOut(F))
    return reportError(std::move(E));
  if (llvm::Error E = checkRunOutsideInputs(F.Options))
    return reportError(std::move(E));
  if (llvm::Error E = checkNativeMeasurement(F.Options))
    return reportError(std::move(E));
  if (Evaluation.CacheDir.empty())
    Evaluation.CacheDir = defaultCacheDirectory();
  installInterruptHandler();
  if (F.Validate) {
    auto Record = runValidation(F.Options);
    if (!Record)
      return reportStageError(Record.takeError());
    if (F.Options.Native.enabled()) {
      auto Measured = measureBestNatively(F.Options);
      if (!Measured)
        return reportStageError(Measured.takeError());
      (*Record)["native"] = (*Measured)["native"];
    }
    if (!F.Json) {
      llvm::outs() << validationText(*Record) << nativeText(*Record);
      return Success;
    }
    auto Text = serializeJson(*Record, "stdout");
    if (!Text)
      return reportError(Text.takeError());
    llvm::outs() << *Text << "\n";
    return Success;
  }
  SearchOptions &Search = F.Options.Search;
  if (Search.TimeBudgetSeconds > 0 && !F.IterationsGiven)
    Search.Iterations = SearchOptions::NoIterationLimit;
  double Elapsed = 0;
  unsigned Done = 0;
  F.Options.Run.Started = std::chrono::steady_clock::now(); // the time budget's start
  F.Options.Run.OnStep = [&](const Json &Record) {
    Elapsed += Record["seconds"].get<double>();
    ++Done;
    uint64_t Step = Record["step"].get<uint64_t>();
    std::optional<double> BudgetLeft;
    if (Search.TimeBudgetSeconds > 0)
      BudgetLeft = Search.TimeBudgetSeconds - secondsSince(F.Options.Run.Started);
    double Left = etaSeconds(Elapsed / Done, Search.Iterations - Step - 1, BudgetLeft);
    // Flushed: a log file that a person follows shows each step as it ends.
    ((F.Json ? llvm::errs() : llvm::outs())
     << "train: " << stepLine(Record, Search.Iterations, Left) << "\n")
        .flush();
  };
  F.Options.Run.ReportError = reportStageError;
  auto R = runTrain(F.Options);
  if (!R)
    return reportStageError(R.takeError());
  if (!R->Leader) // another rank of an MPI job: the leader reports
    return Success;
  if (F.Json) {
    auto Text = serializeJson(summaryJson(*R, F.Options.Run.Output), "stdout");
    if (!Text)
      return reportError(Text.takeError());
    llvm::outs() << *Text << "\n";
    return Success;
  }
  llvm::outs() << summaryText(*R, F.Options.Run.Output);
  return Success;
}

} // namespace

CommandHandle addTrainCommand(CLI::App &Parent) {
  auto Flags = std::make_shared<TrainFlags>();
  TrainInputs &In = Flags->Options.Inputs;
  SearchOptions &Search = Flags->Options.Search;
  EvaluationOptions &Evaluation = Flags->Options.Evaluation;
  RunOptions &Run = Flags->Options.Run;
  NativeMeasureOptions &Native = Flags->Options.Native;
  CLI::App *Cmd = Parent.add_subcommand(
      "train",
      "Train an eviction policy with Evolution Strategies: each step evaluates the policy "
      "and antithetic perturbations of it (compile the subset corpus, replay the trace) and "
      "moves along the estimated gradient of the predicted speedup over the default "
      "variant (Adam). DIR receives policy.json (current), best.json (the best policy "
      "evaluated, perturbations included), checkpoint.json and "
      "log.jsonl; --resume continues a run. At the end, the best policy is validated: "
      "replayed on the whole trace (not the training shard; exactly, or with --engine mca "
      "by fast replay) and on the --validate-trace traces, against default and the start "
      "policy (a 'validation' record in log.jsonl, and the summary). With --job or "
      "--job-file, several programs at once: a policy's reward is the mean of its "
      "predicted speedups over each program's default, and an evaluation that fails on "
      "one program fails as a whole (its antithetic pair is dropped).");
  // The last of a repeated option wins, as in compilers: scripts append overrides.
  Cmd->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  Cmd->add_option("--corpus", In.Corpus, "The subset corpus (from subset)");
  Cmd->add_option("--trace", In.Trace, "The .bbtrace (from trace record)");
  Cmd->add_option("--baseline", In.Baseline,
                  "The binary the trace was recorded on (code of traced functions the "
                  "corpus does not define)");
  Cmd->add_option("--native-cycles", In.NativeCycles,
                  "The cycles a native run of the baseline takes (measure's "
                  "baseline_cycles, of the traced run): rewards are then the predicted "
                  "speedups of the whole run, as replay --native-cycles predicts them (the "
                  "cycles the engine does not model, memory and fetch stalls, the same for "
                  "every policy)")
      ->check(finiteNumber(0, true));
  Cmd->add_option("--job", Flags->Jobs,
                  "[NAME=]CORPUS,TRACE,BINARY[,NATIVE_CYCLES]: a program to train on, "
                  "instead of --corpus, --trace and --baseline (repeatable; NAME defaults to "
                  "the trace's name without extension, and names must differ). A policy's "
                  "reward is the mean of its predicted speedups over each program's "
                  "default, of each whole run where its native cycles are given (then "
                  "weighed as the machine weighs them); an evaluation that fails on one "
                  "program fails as a whole (its pair is dropped)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  Cmd->add_option("--job-file", Flags->JobFile,
                  "A JSON list of jobs, [{\"name\": ..., \"corpus\": ..., \"trace\": ..., "
                  "\"baseline\": ..., \"native_cycles\": ...}] (name and native_cycles "
                  "optional; relative paths from the file's directory), before the --job "
                  "ones");
  Cmd->add_option("-o,--output", Run.Output, "The training directory");
  CLI::Option *Iterations =
      Cmd->add_option("--iterations", Search.Iterations,
                      "Steps in all (a resumed run included); with --time-budget, no limit "
                      "unless given")
          ->default_val(Search.Iterations)
          ->check(wholeNumber(1));
  Cmd->add_option("--time-budget", Search.TimeBudgetSeconds,
                  "Start no step after this many seconds of this invocation (at least one "
                  "step runs; the one under way finishes), then end as after the last "
                  "iteration: validation, and native measurement with --measure-run")
      ->check(finiteNumber(0, /*Strict=*/true));
  Cmd->add_option("--perturbations", Search.Perturbations,
                  "Directions per step, each evaluated at +sigma and -sigma")
      ->default_val(Search.Perturbations)
      ->check(wholeNumber());
  Cmd->add_option("--sigma", Search.Sigma, "Standard deviation of the perturbations")
      ->default_val(Search.Sigma)
      ->check(finiteNumber(0, /*Strict=*/true));
  Cmd->add_option("--step-size", Search.StepSize, "Adam's step size")
      ->default_val(Search.StepSize)
      ->check(finiteNumber(0, /*Strict=*/true));
  Cmd->add_option("--fitness", Search.Shaping,
                  "How a step's rewards weigh its directions: 'zscore' (their z-scores) or "
                  "'rank' (their centered ranks, in [-0.5, 0.5], ties averaged)")
      ->transform(CLI::Validator(
          [](std::string &Text) -> std::string {
            std::optional<Fitness> F = parseFitnessName(llvm::StringRef(Text).lower());
            if (!F)
              return "'" + Text + "' is not a fitness shaping (zscore, rank)";
            Text = std::to_string(static_cast<int>(*F));
            return "";
          },
          ""))
      ->type_name("zscore|rank")
      ->default_str(fitnessName(Search.Shaping));
  Cmd->add_option("--top-directions", Search.TopDirections,
                  "Only the K pairs with the highest max(reward at +sigma, at -sigma) make "
                  "the gradient (ties: the lower direction); 0: all")
      ->default_val(Search.TopDirections)
      ->check(wholeNumber());
  Cmd->add_option("--shortlist", Search.ShortlistSize,
                  "Keep the K best distinct policies evaluated (by predicted speedup; equal "
                  "speedups count once) in DIR/shortlist/1.json .. K.json, indexed by "
                  "DIR/shortlist.json, for a native measurement to choose among: the "
                  "engine cannot rank gains of a few tenths of a percent; 0: none")
      ->default_val(Search.ShortlistSize)
      ->check(wholeNumber());
  Cmd->add_option("--seed", Search.Seed, "Seed of the perturbation directions")
      ->default_val(Search.Seed)
      ->check(wholeNumber());
  Cmd->add_option("-j,--jobs", Evaluation.Jobs, "Evaluations run at once")
      ->default_val(std::max(1u, std::thread::hardware_concurrency()))
      ->check(wholeNumber());
  Cmd->add_option("--init", Search.Init,
                  "The starting policy: a built-in name or a policy file")
      ->default_val(Search.Init);
  addCpuOption(Cmd, Evaluation.CPU,
               "The CPU the replay engine models: a name as LLVM spells it, 'native' for "
               "this host's (skylake if LLVM has no scheduling model for it; give a name "
               "when the ranks of --mpi run on different CPUs), or 'help' to list them");
  addEngineOption(Cmd, Evaluation.Engine,
                  "The replay engine (see 'mlgo-ra replay --help'); with 'flow', each "
                  "evaluation replays the whole trace unless --sample gives a shard");
  Cmd->add_option("--measure-run", Native.Run,
                  "Measure natively at the end (and with --validate): the whole program "
                  "built with the best policy, the start policy and default, and measured "
                  "as 'mlgo-ra measure' does, run as this says: '{program} ARGS...' (split "
                  "as the shell would, run without one); a 'native' record in log.jsonl "
                  "and the summary");
  Cmd->add_option("--measure-corpus", Native.Corpus,
                  "With --measure-run: the corpus of the whole program (every module the "
                  "link needs; a subset corpus has only the traced ones)");
  Cmd->add_option("--measure-link", Native.Link,
                  "With --measure-run: the shell command that links a build's objects, run "
                  "in its directory (the objects at the paths the corpus names, as "
                  "'mlgo-ra compile' writes them), e.g. the program's own link command");
  Cmd->add_option("--measure-program", Native.Program,
                  "With --measure-run: the program the link writes, relative to a build's "
                  "directory (default: the file name of --baseline)");
  Cmd->add_option("--measure-mode", Native.Mode,
                  "With --measure-run: processes (each run a process, timed by CPU "
                  "seconds) or paired (the builds in one process, mains called in turn: "
                  "tenths of a percent, for a main that can be called again and a "
                  "--measure-link that is one compiler-driver invocation); see 'mlgo-ra "
                  "measure --help'")
      ->check(CLI::IsMember({"processes", "paired"}))
      ->capture_default_str();
  Cmd->add_option("--measure-precision", Native.Precision,
                  "With --measure-run: stop once every 95% interval is narrower than this "
                  "many points")
      ->check(finiteNumber(0, true))
      ->capture_default_str();
  Cmd->add_option("--measure-time-budget", Native.TimeBudget,
                  "With --measure-run: ... or after this many seconds of measuring")
      ->check(finiteNumber(0, true))
      ->capture_default_str();
  addCoreProfileOption(Cmd, Flags->CoreProfile);
  Cmd->add_flag("--load-dependences", Evaluation.LoadDependences,
                "Replay with the traces' load dependences (see 'mlgo-ra replay --help')");
  Cmd->add_option("--clang", Evaluation.Clang, "The compiler")->default_val(Evaluation.Clang);
  Cmd->add_option("--cache-dir", Evaluation.CacheDir,
                  "Where the middle ends and the traced binary's exact replay are kept, "
                  "for the next run on the same corpus and trace (default: "
                  "$XDG_CACHE_HOME/mlgo-ra or ~/.cache/mlgo-ra)");
  Cmd->add_option("--timeout", Evaluation.CompileTimeoutSeconds,
                  "Kill a compile after this many seconds; its pair is dropped")
      ->default_val(Evaluation.CompileTimeoutSeconds)
      ->check(finiteNumber(0));
  Cmd->add_option("--sample", Flags->Sample,
                  "Replay a shard of the trace: differences from the traced code count only "
                  "in windows of LENGTH events, one in each period of EVERY events, weighted "
                  "EVERY/LENGTH (LENGTH/EVERY, e.g. 1024/16384); the same windows for every "
                  "evaluation. 'auto': 1024/16384 on a trace of at least 64 x 16384 events, "
                  "else the whole trace. 'none': the whole trace")
      ->capture_default_str();
  Cmd->add_flag("--resume", Run.Resume, "Continue the run in the output directory");
  Cmd->add_flag("--mpi", Run.Mpi,
                "Train on the ranks of an MPI job (mpirun -np N mlgo-ra train --mpi ...): "
                "rank 0 owns the optimizer, log and checkpoint; every rank evaluates a "
                "share of each step");
  Cmd->add_option("--validate-trace", Flags->HeldOut,
                  "TRACE[:BINARY]: a held-out trace, the program run on another input, "
                  "recorded on BINARY (default: --baseline, the same binary); the best "
                  "policy is validated on it too (repeatable; not with several jobs, whose "
                  "whole traces are each validated)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  Cmd->add_flag("--validate", Flags->Validate,
                "Validate the best policy of the run in the output directory without "
                "training (give the run's --corpus, --trace, --baseline or its jobs, "
                "--init, --mcpu and --engine): replay it on the whole trace and the "
                "--validate-trace traces, append the record to DIR/log.jsonl, and exit");
  Cmd->add_option("--report", Flags->Report,
                  "Write DIR/reward.svg from DIR/log.jsonl (the reward curve and the "
                  "validation points) and, once validated, DIR/report.md (the validation "
                  "and the functions the best policy changes most), and exit");
  Cmd->add_flag("--json", Flags->Json, "Print the result as JSON (steps go to stderr)");
  return {Cmd, [Flags, Iterations] {
            Flags->IterationsGiven = Iterations->count() > 0;
            return train(*Flags);
          }};
}

} // namespace mlgo
