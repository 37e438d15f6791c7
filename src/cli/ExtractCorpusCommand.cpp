/// \file
/// mlgo-ra extract-corpus: options → ExtractCorpusOptions → runExtractCorpus → summary.
#include "Commands.h"
#include "ExitCode.h"
#include "NumberOptions.h"
#include "corpus/ExtractCorpus.h"
#include "support/ShellWords.h"

#include "llvm/Support/raw_ostream.h"
#include <fmt/format.h>
#include <map>

namespace mlgo {
namespace {

struct ExtractCorpusFlags {
  ExtractCorpusOptions Opts;
  std::string Kind = "auto";
  std::string Override;
  std::string Filter;
  bool Json = false;
};

void printSummary(const ExtractCorpusResult &R) {
  llvm::outs() << fmt::format(
      "extract-corpus: {} modules from {} objects ({}) written to {} ({:.1f} MB{}, "
      "{:.2f} s)\n",
      R.Modules.size(), R.ObjectsScanned, inputKindName(R.Kind).str(), R.OutputDir,
      R.BytesWritten / 1e6, R.HasThinLTO ? ", ThinLTO" : "", R.Seconds);
  std::map<std::string, size_t> ByReason;
  for (const SkippedObject &S : R.Skipped)
    ++ByReason[S.Reason];
  for (const auto &[Reason, Count] : ByReason)
    llvm::outs() << fmt::format("  skipped {} objects: {}\n", Count, Reason);
}

int run(ExtractCorpusFlags &F) {
  F.Opts.Kind = *parseInputKind(F.Kind);
  if (!F.Override.empty())
    F.Opts.GlobalCommandOverride = splitShellWords(F.Override);
  if (!F.Filter.empty())
    F.Opts.CmdFilter = F.Filter;
  F.Opts.ShowProgress = !F.Json;
  auto Result = runExtractCorpus(F.Opts);
  if (!Result)
    return reportError(Result.takeError());
  if (F.Json)
    llvm::outs() << dumpJson(Result->toJSON()) << "\n";
  else
    printSummary(*Result);
  return Success;
}

} // namespace

CommandHandle addExtractCorpusCommand(CLI::App &Parent) {
  auto Flags = std::make_shared<ExtractCorpusFlags>();
  CLI::App *Cmd = Parent.add_subcommand(
      "extract-corpus",
      "Extract the modules embedded in a build's objects (-Xclang -fembed-bitcode=all) into "
      "an ml-compiler-opt corpus: <out>/<object>.bc, .cmd, .thinlto.bc and "
      "corpus_description.json.");
  Cmd->add_option("input", Flags->Opts.Input,
                  "A directory of objects (searched recursively), a compile_commands.json, "
                  "a linker parameter file, or the directory of a local ThinLTO link made "
                  "with lld --save-temps=import --thinlto-emit-index-files")
      ->required();
  Cmd->add_option("-o,--output", Flags->Opts.OutputDir, "The corpus directory to write")
      ->required();
  Cmd->add_option("--input-kind", Flags->Kind, "What the input is (default: detected)")
      ->check(CLI::IsMember({"auto", "directory", "compile-commands", "params",
                             "thinlto-local"}));
  Cmd->add_option("--object-base-dir", Flags->Opts.ObjectBaseDir,
                  "Directory that relative object paths of a linker parameter file start "
                  "from (default: the working directory)");
  Cmd->add_option("--cmd-filter", Flags->Filter,
                  "Keep only modules with a compile option matching this regular "
                  "expression, matched against each option alone (e.g. '^-O2$')");
  Cmd->add_option("--global-command-override", Flags->Override,
                  "The cc1 command for every module, as one shell-quoted string; required "
                  "for local ThinLTO, which records none");
  Cmd->add_option("-j,--threads", Flags->Opts.Threads,
                  "Worker threads (default: one per core)")
      ->check(wholeNumber());
  Cmd->add_flag("--json", Flags->Json, "Print a machine-readable summary on stdout");
  return {Cmd, [Flags] { return run(*Flags); }};
}

} // namespace mlgo
