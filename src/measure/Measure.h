/// \file
/// Native measurement: how much faster or slower builds of one program run than a
/// baseline build on this machine, each with a 95% confidence interval. Two modes:
///   paired     the builds' objects linked into one process (their symbols renamed) and
///              their mains called in turn, each process a layout of its own: resolves
///              a few tenths of a percent on a shared machine; needs a main that can be
///              called again and returns (PairedHarness.c);
///   processes  every run a process of its own, interleaved baseline, candidate,
///              baseline; timed by CPU seconds or by a figure the program prints; each
///              round from fresh copies of the executables (ProcessesMode.cpp: why).
/// Rounds go on until every candidate's interval is narrower than the precision asked
/// for, or the time budget is spent. Auto mode measures paired where every build is a
/// directory and the link command is given, and as processes where a build is an
/// executable or paired mode refuses the program (its main exits, or prints other
/// output when called again). A control, the baseline's own code measured as a
/// candidate, shows the bias of the baseline's place among the calls (it runs between
/// all the others), and candidates are measured over it, each round.
#pragma once

#include "llvm/Support/Error.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mlgo {

enum class MeasureMode { Auto, Paired, Processes };

/// One build: a directory of objects at the paths the link command names (as `compile`
/// writes a variant), or a linked executable.
struct BuildSpec {
  std::string Name;
  std::string Path;
};

/// "NAME=PATH" or "PATH" (named after the path's last component).
BuildSpec parseBuildSpec(const std::string &Text);

struct MeasureOptions {
  BuildSpec Baseline;
  /// None: the baseline alone is timed, beside its control (its cycles a run).
  std::vector<BuildSpec> Candidates;
  /// The program's link command, run in a build's directory: the compiler driver, its
  /// flags, objects (relative to the directory) and -o. Needed for directories.
  std::string Link;
  /// The program's arguments; it runs in the current directory.
  std::vector<std::string> Args;
  /// A file for the program's standard input (rewound before each call); empty:
  /// /dev/null.
  std::string Stdin;
  MeasureMode Mode = MeasureMode::Auto;
  /// Stop once every candidate's 95% interval is narrower than this, in points.
  double Precision = 0.5;
  /// ... or after this many seconds (wall clock, preparation included).
  double TimeBudget = 300;
  /// Processes mode: time a run by the number the program prints that this regular
  /// expression's first group (or whole match) captures, its last match in standard
  /// output and error; lower is faster. Empty: the run's CPU seconds.
  std::string Metric;
  /// Refuse a build whose standard output differs from the baseline's.
  bool CheckOutput = true;
  /// Paired mode: each shifted layout moves a build's code by a random multiple of this
  /// many bytes (a power of two, 16 to 4096). 64 keeps the alignment the trace flags
  /// give functions and loops; 16 also moves loops within their fetch lines, which
  /// moves an interpreter's speed by points.
  uint64_t CodeShift = 64;
  /// Seeds the layouts and orders; 0: drawn from the clock (the result names it).
  uint64_t Seed = 0;
  std::string Clang = "clang-22";
  /// Called after each process (paired) or round (processes) with a line of progress.
  std::function<void(const std::string &)> Progress;
};

enum class Verdict { Faster, Slower, WithinNoise };
const char *verdictName(Verdict V);

struct BuildResult {
  std::string Name, Path;
  bool Control = false;
  /// Median speedup over the baseline (baseline time / build time - 1; a candidate's
  /// through the control's time in the same round) and its 95% confidence interval, as
  /// fractions.
  double Speedup = 0, Low = 0, High = 0;
  /// Processes (paired) or rounds (processes) that went into it.
  size_t Samples = 0;
  Verdict Judged = Verdict::WithinNoise;
};

struct Measurement {
  MeasureMode Mode = MeasureMode::Paired;
  /// Auto mode measured as processes because paired mode refused the program: why.
  std::string PairedRefused;
  std::string Metric; ///< what one value is, in words
  double BaselineValue = 0; ///< the baseline's median value (a call's or a run's)
  /// Where values are CPU seconds: the clock, timed after each unit (Clock.h; their
  /// median), and the baseline's median value in cycles at that clock, what replay's
  /// --native-cycles takes. None with a metric, or where the clock cannot be timed.
  std::optional<double> ClockGHz, BaselineCycles;
  size_t Units = 0; ///< processes (paired) or rounds (processes)
  double Seconds = 0;
  double Precision = 0;
  bool PrecisionReached = false;
  uint64_t Seed = 0;
  /// The control first, then the candidates in the order given.
  std::vector<BuildResult> Builds;
};

/// Measures; errors blame the build (output differs, link fails, main exits: input
/// errors) or the machine.
llvm::Expected<Measurement> measure(const MeasureOptions &Opts);

} // namespace mlgo
