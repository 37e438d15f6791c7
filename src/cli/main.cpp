/// \file
/// mlgo-ra: the driver. Registers every subcommand, parses the command line with CLI11,
/// initializes LLVM's targets only for stages that compile or disassemble code, and
/// turns the result into an exit code (ExitCode.h).
#include "Commands.h"
#include "ExitCode.h"
#include "support/Printable.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/WithColor.h"

namespace {

struct Subcommand {
  mlgo::CommandHandle (*Add)(CLI::App &);
  /// Whether the stage needs LLVM's targets (disassemblers, MCA); others skip the cost.
  bool NeedsTargets;
};

// The pipeline in order. A subcommand is listed only once it works end to end.
const Subcommand Subcommands[] = {
    {mlgo::addExtractCorpusCommand, false},
    {mlgo::addTraceCommand, true},
    {mlgo::addSubsetCommand, false},
    {mlgo::addCompileCommand, false},
    {mlgo::addReplayCommand, true},
    {mlgo::addTrainCommand, true},
    {mlgo::addMeasureCommand, false},
    {mlgo::addCalibrateCommand, true},
    {mlgo::addExportCommand, false},
};

std::string versionText() {
  return std::string("mlgo-ra ") + MLGO_RA_VERSION + " (LLVM " + LLVM_VERSION_STRING + ")";
}

} // namespace

int main(int Argc, char **Argv) {
  llvm::InitLLVM Init(Argc, Argv);
  CLI::App App("mlgo-ra trains and checks machine-learned register-allocation eviction "
               "policies for LLVM, predicting speedups by replaying a recorded trace "
               "through LLVM MCA.",
               "mlgo-ra");
  App.set_version_flag("--version", versionText());
  App.require_subcommand(1);
  App.footer("Run 'mlgo-ra <subcommand> --help' for the options of each subcommand.");

  std::vector<mlgo::CommandHandle> Handles;
  for (const Subcommand &S : Subcommands)
    Handles.push_back(S.Add(App));

  // CLI11 would call an unknown word "A subcommand is required"; name it instead.
  auto IsSubcommand = [&](llvm::StringRef Word) {
    for (const CLI::App *Sub : App.get_subcommands({}))
      if (Sub->get_name() == Word)
        return true;
    return false;
  };
  if (Argc > 1 && Argv[1][0] != '-' && !IsSubcommand(Argv[1])) {
    llvm::WithColor::error(llvm::errs(), "mlgo-ra")
        << "unknown subcommand '" << mlgo::printable(Argv[1]) << "' (see 'mlgo-ra --help')\n";
    return mlgo::BadInput;
  }

  try {
    App.parse(Argc, Argv);
  } catch (const CLI::ParseError &E) {
    if (E.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success))
      return App.exit(E); // --help, --version
    // One line, as every error: where to read about the usage goes at its end.
    std::string Help = "mlgo-ra";
    for (const CLI::App *At = &App; !At->get_subcommands().empty();) {
      At = At->get_subcommands().front();
      Help += " " + At->get_name();
    }
    Help += " --help";
    llvm::WithColor::error(llvm::errs(), "mlgo-ra")
        << mlgo::printable(E.what()) << " (see '" << Help << "')\n";
    return mlgo::BadInput;
  }

  for (size_t I = 0; I < Handles.size(); ++I) {
    if (!Handles[I].Parsed->parsed())
      continue;
    if (Subcommands[I].NeedsTargets) {
      llvm::InitializeAllTargetInfos();
      llvm::InitializeAllTargetMCs();
      llvm::InitializeAllDisassemblers();
      llvm::InitializeAllTargetMCAs();
    }
    return Handles[I].Run();
  }
  return mlgo::BadInput;
}
