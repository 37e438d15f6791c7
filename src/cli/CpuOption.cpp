/// \file
/// The listing runs while the command line is parsed (as --help does), so it needs the
/// target registry before main initializes it for the command.
#include "CpuOption.h"
#include "Commands.h"
#include "replay/engine/CpuChoice.h"

#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <fmt/format.h>

namespace mlgo {
namespace {

/// A parse error that CLI11 passes on as it is (it prefixes a ValidationError thrown
/// here with the option's name); main prints it as one line and exits 2.
struct ListingError : CLI::ParseError {
  explicit ListingError(std::string Message)
      : CLI::ParseError("ListingError", std::move(Message), CLI::ExitCodes::ValidationError) {}
};

/// Prints the CPUs of \p Triple (empty: the host's) on stdout.
llvm::Error listCpus(const std::string &Triple) {
  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargetMCs();
  auto Cpus = knownCpus(Triple);
  if (!Cpus)
    return Cpus.takeError();
  auto Host = chooseCpu("native", Triple);
  CpuChoice Native = Host ? *Host : CpuChoice{"none", ""};
  llvm::consumeError(Host.takeError());
  llvm::outs() << fmt::format("CPUs LLVM models for {} (--mcpu NAME; native, the default: "
                              "{}):\n",
                              Triple.empty() ? hostTriple() : Triple, Native.Name);
  if (!Native.Warning.empty())
    llvm::outs() << "(native: " << Native.Warning << ")\n";
  std::string Unscheduled;
  for (const KnownCpu &C : *Cpus) {
    if (!C.Scheduled) {
      Unscheduled += (Unscheduled.empty() ? "" : " ") + C.Name;
      continue;
    }
    llvm::outs() << "  " << C.Name << (C.InOrder ? "  (in-order: --engine mca only)" : "")
                 << "\n";
  }
  if (!Unscheduled.empty())
    llvm::outs() << "without a scheduling model, which replay needs: " << Unscheduled
                 << "\n";
  return llvm::Error::success();
}

} // namespace

CLI::Option *addCpuOption(CLI::App *Cmd, std::string &CPU, const std::string &Help) {
  return Cmd->add_option("--mcpu", CPU, Help)
      ->default_val("native")
      ->each([Cmd](const std::string &Value) {
        if (Value != "help")
          return;
        std::string Triple;
        if (CLI::Option *Given = Cmd->get_option_no_throw("--mtriple"); Given && Given->count())
          Triple = Given->as<std::string>();
        if (llvm::Error E = listCpus(Triple))
          throw ListingError(llvm::toString(std::move(E)));
        throw CLI::Success();
      });
}

std::optional<int> resolveCpuOption(std::string &CPU, llvm::StringRef Triple) {
  auto Choice = chooseCpu(CPU, Triple);
  if (!Choice)
    return reportError(Choice.takeError());
  if (!Choice->Warning.empty())
    llvm::WithColor::warning(llvm::errs(), "mlgo-ra") << "--mcpu: " << Choice->Warning << "\n";
  CPU = Choice->Name;
  return std::nullopt;
}

} // namespace mlgo
