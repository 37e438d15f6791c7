/// \file
/// Native measurement of trained policies (train --measure-run): the replay engine
/// predicts a policy's speedup, and this checks the prediction on the machine at hand
/// before the policy ships. The whole program is compiled with each policy and with
/// `default`, linked by the program's own link command, and measured against the
/// `default` build by `mlgo-ra measure`'s library (measure/Measure.h): each build must
/// print what `default` prints; a policy's speedup is a median with its 95% interval.
#pragma once

#include "support/Json.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace mlgo {

struct NativeMeasureOptions {
  /// The whole program's corpus: every module the link needs.
  std::string Corpus;
  /// A shell command, run in a build's directory (its objects at the paths the corpus
  /// names), that links them into Program.
  std::string Link;
  /// The linked program, relative to a build's directory.
  std::string Program;
  /// How the program runs: "{program}" and its arguments, split as the shell would
  /// but run without one.
  std::string Run;
  /// measure's mode ("processes" or "paired": the builds' objects in one process, which
  /// needs Link to be one compiler-driver invocation), precision and time budget.
  std::string Mode = "processes";
  double Precision = 0.5;
  double TimeBudget = 120;
  std::string Clang = "clang-22";
  /// The middle-end cache (compile's --cache-dir); empty: whole compiles.
  std::string CacheDir;
  unsigned Jobs = 1;
  double TimeoutSeconds = 0;
  bool enabled() const { return !Run.empty(); }
};

/// A policy to build and measure: a built-in name or a policy file.
struct NativeCandidate {
  std::string Name; ///< a directory name; not "default"
  std::string Policy;
};

/// Builds `default` and every candidate in \p Directory/NAME and measures them; returns
/// {"native": {"run", measure's JSON (mode, metric, units, ..., "builds": [{"name",
/// "policy", "speedup", "low", "high", "verdict", ...}])}}, the control first. A build
/// that does not link, a run that fails or a build that prints other output than
/// `default`'s is an error naming the build.
llvm::Expected<Json> measureNatively(const NativeMeasureOptions &Opts,
                                     llvm::ArrayRef<NativeCandidate> Candidates,
                                     llvm::StringRef Directory);

/// The native choice among a shortlist: of the builds in \p Record (measureNatively's)
/// other than the control and "start", the one measured fastest among those faster than
/// `default` above noise. Adds {"choice": {"name", "policy", "speedup", "low", "high"}}
/// to the record ("name" "default" when none is) and copies the chosen policy to
/// \p ChosenPath (removing an earlier one when none is chosen).
llvm::Error chooseNatively(Json &Record, const std::string &ChosenPath);

/// The program's arguments from --measure-run: "{program}" first, then its arguments;
/// an input error for shell syntax.
llvm::Expected<std::vector<std::string>> nativeRunArguments(const std::string &Run);

} // namespace mlgo
