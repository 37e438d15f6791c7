/// \file
/// mlgo-ra measure: is a build of a program faster or slower than a baseline build on
/// this machine, and by how much? Prints each candidate's median speedup, its 95%
/// interval and a verdict, with a control (the baseline's own code) beside them;
/// --fail-if-slower for CI (measure/Measure.h says how).
#include "Commands.h"
#include "ExitCode.h"
#include "NumberOptions.h"
#include "measure/MeasureReport.h"
#include "support/InputFile.h"
#include "support/Interrupt.h"
#include "support/OutputFile.h"

#include "llvm/Support/raw_ostream.h"
#include <fmt/format.h>
#include <unistd.h>

namespace mlgo {
namespace {

struct MeasureFlags {
  MeasureOptions Options;
  std::string Baseline, Mode = "auto", Markdown;
  std::vector<std::string> Candidates;
  std::optional<double> FailIfSlower;
  bool Json = false, NoOutputCheck = false;
};

int measureBuilds(MeasureFlags &F) {
  installInterruptHandler();
  MeasureOptions &O = F.Options;
  O.Baseline = {"baseline", F.Baseline};
  for (const std::string &C : F.Candidates)
    O.Candidates.push_back(parseBuildSpec(C));
  O.Mode = F.Mode == "paired"      ? MeasureMode::Paired
           : F.Mode == "processes" ? MeasureMode::Processes
                                   : MeasureMode::Auto;
  O.CheckOutput = !F.NoOutputCheck;
  if (!F.Markdown.empty()) {
    std::vector<std::string> Inputs{O.Baseline.Path, O.Stdin};
    for (const BuildSpec &B : O.Candidates)
      Inputs.push_back(B.Path);
    if (llvm::Error E = checkOutputOutsideInputs(F.Markdown, Inputs))
      return reportError(std::move(E));
  }
  if (isatty(2))
    O.Progress = [](const std::string &Line) {
      llvm::errs() << "\rmeasure: " << Line << "\x1b[K";
    };
  auto M = measure(O);
  if (O.Progress)
    llvm::errs() << "\r\x1b[K";
  if (!M)
    return reportStageError(M.takeError());
  if (!F.Markdown.empty())
    if (llvm::Error E = writeFileAtomically(F.Markdown, measurementMarkdown(*M)))
      return reportError(std::move(E));
  if (F.Json)
    llvm::outs() << dumpJson(measurementJson(*M)) << "\n";
  else
    llvm::outs() << measurementText(*M);
  if (F.FailIfSlower)
    if (auto Slower = slowerThan(*M, *F.FailIfSlower); !Slower.empty()) {
      for (const BuildResult *B : Slower)
        llvm::errs() << fmt::format("mlgo-ra: {} is measured slower than the baseline by "
                                    "more than --fail-if-slower {}% (at most {:+.2f}%)\n",
                                    B->Name, *F.FailIfSlower, 100 * B->High);
      return Failure;
    }
  return Success;
}

} // namespace

CommandHandle addMeasureCommand(CLI::App &Parent) {
  auto Flags = std::make_shared<MeasureFlags>();
  CLI::App *Cmd = Parent.add_subcommand(
      "measure",
      "Measure builds of one program against a baseline build natively, on this machine: "
      "each candidate's median speedup, its 95% confidence interval and a verdict "
      "(faster, slower, within noise), beside a control (the baseline's own code measured "
      "as a candidate: the noise the interval does not show). The program runs in the "
      "current directory with the ARGS after '--'.\n\n"
      "Paired mode (the default when every build is a directory of objects and --link is "
      "given) links all builds into one process, each build's global symbols renamed, "
      "and calls their mains in turn; each process is a layout of its own (order of the "
      "builds, code and data offsets). It resolves a few tenths of a percent on a shared "
      "machine, and needs a main that returns (no exit()) and prints the same when called "
      "again: no state left from an earlier call. Processes mode runs each build as a "
      "process, interleaved (baseline, candidate, baseline), timed by CPU seconds or by a "
      "number the program prints (--metric), each round from fresh copies of the "
      "executables (where a file's pages sit in memory moves its speed); on a shared "
      "virtual machine it resolves points, not tenths.\n\n"
      "Rounds go on until every candidate's interval is narrower than --precision or the "
      "--time-budget is spent. Exit codes: 0 measured, 1 --fail-if-slower held, 2 bad "
      "input (a build that prints other output than the baseline's, a link that fails, "
      "a main that exits), 130 interrupted.");
  Cmd->add_option("--baseline", Flags->Baseline,
                  "The baseline BUILD: a directory holding the program's objects at the "
                  "paths --link names (as compile writes a variant), or an executable")
      ->required();
  Cmd->add_option("--candidate", Flags->Candidates,
                  "A build to measure, [NAME=]BUILD; repeat for more (at most 22). "
                  "Without, the baseline alone is timed (beside its control): its cycles "
                  "a run, for replay --native-cycles");
  Cmd->add_option("--link", Flags->Options.Link,
                  "The program's link command, one compiler-driver invocation run in a "
                  "build's directory ('ninja -t commands TARGET | tail -1' prints it)");
  Cmd->add_option("--mode", Flags->Mode,
                  "paired, processes or auto: paired where every build is a directory and "
                  "--link is given, else processes; also processes when paired mode "
                  "refuses the program (its main exits, or prints other output when "
                  "called again), the result saying why")
      ->check(CLI::IsMember({"auto", "paired", "processes"}))
      ->capture_default_str();
  Cmd->add_option("--precision", Flags->Options.Precision,
                  "Stop once every candidate's 95% interval is narrower than this many "
                  "points (percent)")
      ->check(finiteNumber(0, true))
      ->capture_default_str();
  Cmd->add_option("--time-budget", Flags->Options.TimeBudget,
                  "... or after this many seconds, building included")
      ->check(finiteNumber(0, true))
      ->capture_default_str();
  Cmd->add_option("--metric", Flags->Options.Metric,
                  "Processes mode: time a run by the number this regular expression's "
                  "first group captures, its last match in the program's output (lower is "
                  "faster); default: the run's CPU seconds");
  Cmd->add_option("--stdin", Flags->Options.Stdin,
                  "A file for the program's standard input (default: /dev/null)");
  Cmd->add_flag("--no-output-check", Flags->NoOutputCheck,
                "Measure builds that print other output than the baseline's (programs "
                "that print their own timings)");
  Cmd->add_option("--code-shift", Flags->Options.CodeShift,
                  "Paired mode: from the third process on, each build's code sits after a "
                  "random multiple of BYTES of padding, below 4 KiB (a power of two, 16 to "
                  "4096). 64 keeps the alignment the trace flags give functions and loops; "
                  "16 also moves loops within fetch lines, which moves some programs "
                  "(interpreters) by points")
      ->capture_default_str();
  Cmd->add_option("--seed", Flags->Options.Seed,
                  "Seed of the layouts and orders (default: drawn; the result names it)");
  Cmd->add_option("--clang", Flags->Options.Clang,
                  "The compiler for the harness and layout padding of paired mode")
      ->capture_default_str();
  Cmd->add_option("--fail-if-slower", Flags->FailIfSlower,
                  "Exit 1 if a candidate is measured slower than the baseline by more than "
                  "PCT percent: its whole interval below -PCT%")
      ->check(finiteNumber(0));
  Cmd->add_flag("--json", Flags->Json, "Print the result as JSON on stdout");
  Cmd->add_option("--markdown", Flags->Markdown, "Also write the result as Markdown to FILE");
  Cmd->add_option("args", Flags->Options.Args, "The program's arguments, after '--'");
  return {Cmd, [Flags] { return measureBuilds(*Flags); }};
}

} // namespace mlgo
