/// \file
/// mlgo-ra subset: options → SubsetOptions → runSubset, summarized as text or JSON.
#include "Commands.h"
#include "ExitCode.h"
#include "subset/Subset.h"
#include "support/Printable.h"

#include "llvm/Support/raw_ostream.h"
#include <fmt/format.h>

namespace mlgo {
namespace {

struct SubsetFlags {
  SubsetOptions Options;
  bool Json = false;
};

int subset(const SubsetFlags &F) {
  auto R = runSubset(F.Options);
  if (!R)
    return reportError(R.takeError());
  if (F.Json) {
    llvm::outs() << dumpJson(R->toJSON()) << "\n";
    return Success;
  }
  double Coverage = R->MappedInstructions
                        ? 100.0 * R->CoveredInstructions / R->MappedInstructions
                        : 100.0;
  auto Plural = [](size_t N, const char *Word) {
    return fmt::format("{} {}{}", N, Word, N == 1 ? "" : "s");
  };
  llvm::outs() << fmt::format(
      "subset: {} of {} define {} of the {} ({}), written to {}\n"
      "  coverage {:.2f}% of the traced instructions in the binary's functions\n",
      R->Modules.size(), Plural(R->CorpusModules, "module"),
      R->TracedFunctions - R->Uncovered.size(), Plural(R->TracedFunctions, "traced function"),
      R->Exact ? "minimal" : fmt::format("greedy, at most {:.2f}x the minimum", R->GreedyBound),
      F.Options.Output, Coverage);
  for (const SubsetModule &M : R->Modules)
    llvm::outs() << fmt::format("  {}  ({})\n", M.Name, Plural(M.Functions.size(), "function"));
  for (const std::string &Name : R->Uncovered)
    llvm::outs() << fmt::format("  no module defines {}\n", printable(Name));
  return Success;
}

} // namespace

CommandHandle addSubsetCommand(CLI::App &Parent) {
  auto Flags = std::make_shared<SubsetFlags>();
  CLI::App *Cmd = Parent.add_subcommand(
      "subset", "Choose the fewest corpus modules that define every function a segment "
                "trace ran, and write them as a corpus with the list of functions to "
                "compile (subset_functions.json).");
  Cmd->add_option("--corpus", Flags->Options.Corpus, "The corpus (from extract-corpus)")
      ->required();
  Cmd->add_option("--trace", Flags->Options.Trace, "The .bbtrace (from trace record)")
      ->required();
  Cmd->add_option("-o,--output", Flags->Options.Output, "The subset corpus directory")
      ->required();
  Cmd->add_flag("--json", Flags->Json, "Print the result as JSON on stdout");
  return {Cmd, [Flags] { return subset(*Flags); }};
}

} // namespace mlgo
