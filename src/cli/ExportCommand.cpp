/// \file
/// mlgo-ra export: options → ExportOptions → runExport, summarized as text or JSON.
#include "Commands.h"
#include "ExitCode.h"
#include "export/Export.h"

#include "llvm/Support/raw_ostream.h"
#include <fmt/format.h>

namespace mlgo {
namespace {

struct ExportFlags {
  ExportOptions Options;
  std::string Format = "json";
  bool Json = false;
};

int exportPolicy(ExportFlags &F) {
  F.Options.Format = F.Format == "cpp" ? ExportFormat::Cpp : ExportFormat::Json;
  auto R = runExport(F.Options);
  if (!R)
    return reportError(R.takeError());
  if (F.Json) {
    auto Text = serializeJson(R->toJSON(), "stdout");
    if (!Text)
      return reportError(Text.takeError());
    llvm::outs() << *Text << "\n";
    return Success;
  }
  if (R->Format == ExportFormat::Json) {
    llvm::outs() << fmt::format("export: policy '{}' written to {}\n", R->PolicyName,
                                R->Output);
    return Success;
  }
  llvm::outs() << fmt::format(
      "export: policy '{}' ({} parameters) written to {} as llvm::RegAllocEvictModel\n"
      "  {}/README.md has the cmake flags to build an LLVM that uses it\n",
      R->PolicyName, R->Parameters, R->Output, R->Output);
  return Success;
}

} // namespace

CommandHandle addExportCommand(CLI::App &Parent) {
  auto Flags = std::make_shared<ExportFlags>();
  CLI::App *Cmd = Parent.add_subcommand(
      "export",
      "Write a policy for use outside mlgo-ra: as a policy file (--format json) or as the "
      "C++ class llvm::RegAllocEvictModel for an LLVM 22 release build (--format cpp: a "
      "directory with the class, the TENSORFLOW_AOT_PATH stand-in LLVM's CMake needs, "
      "and a README with the cmake flags).");
  Cmd->add_option("policy", Flags->Options.Policy,
                  "A built-in policy (initial, poor, or default for json) or a policy file")
      ->required();
  Cmd->add_option("--format", Flags->Format,
                  "json (default): a policy file; cpp: a directory for an LLVM build")
      ->check(CLI::IsMember({"json", "cpp"}));
  Cmd->add_option("-o,--output", Flags->Options.Output,
                  "The policy file (json) or the directory (cpp) to write")
      ->required();
  Cmd->add_flag("--json", Flags->Json, "Print a summary as JSON on stdout");
  return {Cmd, [Flags] { return exportPolicy(*Flags); }};
}

} // namespace mlgo
