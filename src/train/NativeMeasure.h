/// \file
/// Native measurement of trained policies (train --measure-run): the replay engine
/// predicts a policy's speedup, and this checks the prediction on the machine at hand
/// before the policy ships. The whole program is compiled with each policy and with
/// `default`, linked by the program's own link command, checked to print what the
/// `default` build prints, and run in turn for a number of rounds, each run timed by its
/// CPU seconds (user and system, of the run command and its children). A policy's
/// measured speedup is the median over rounds of default/policy - 1, with the default
/// run in the same round; above noise when its interquartile range excludes 0.
#pragma once

#include "support/Json.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace mlgo {

struct NativeMeasureOptions {
  /// The whole program's corpus: every module the link needs.
  std::string Corpus;
  /// A shell command, run in a build's directory (its objects at the paths the corpus
  /// names), that links them into Program.
  std::string Link;
  /// The linked program, relative to a build's directory.
  std::string Program;
  /// A shell command that runs the program: "{program}" is replaced by its path.
  std::string Run;
  unsigned Rounds = 10;
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
/// {"native": {"run", "rounds", "default_seconds", "builds": [{"name", "policy",
/// "median_seconds", "speedup", "q1", "q3", "verdict"}], "seconds"}}. A build that does
/// not link, a run that fails or a build that prints other output than `default`'s is
/// an error naming the build.
llvm::Expected<Json> measureNatively(const NativeMeasureOptions &Opts,
                                     llvm::ArrayRef<NativeCandidate> Candidates,
                                     llvm::StringRef Directory);

/// The lines a person reads of a "native" record's object, one per build: "best:
/// +0.42% [-0.31%, +1.10%] within noise (10 rounds)". Reads leniently.
std::string describeNative(const Json &Native);

} // namespace mlgo
