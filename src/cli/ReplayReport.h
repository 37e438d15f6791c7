/// \file
/// replay's reports beyond its plain text: the explanations of --explain as text, and
/// the verdict as Markdown (--markdown) for a CI job summary or a review comment.
#pragma once

#include "replay/Replay.h"

#include <optional>
#include <string>

namespace mlgo {

/// What --fail-if-slower made of a comparison.
struct Verdict {
  std::optional<double> FailIfSlower; ///< percent; none: no check asked
  bool Regressed = false;
  int ExitCode = 0;
};

/// The explanations as text, every line indented by \p Indent: per function its change
/// and spills, per block the side-by-side listing with cycles per run.
std::string explainText(const std::vector<FunctionExplanation> &Explained,
                        llvm::StringRef Indent);

/// The Markdown of a comparison of \p Trace's replays, \p Top functions listed.
std::string comparisonMarkdown(const ReplayComparison &C, const Verdict &V,
                               llvm::StringRef Trace, size_t Top);
/// The Markdown of one variant's replay.
std::string resultMarkdown(const ReplayResult &R, llvm::StringRef Trace, size_t Top);

} // namespace mlgo
