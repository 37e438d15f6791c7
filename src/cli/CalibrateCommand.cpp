/// \file
/// mlgo-ra calibrate: measures this host's core (calibrate/Calibrate.h) and writes the
/// core profile that replay and train read with --core-profile.
#include "Commands.h"
#include "ExitCode.h"
#include "calibrate/Calibrate.h"
#include "replay/engine/CpuChoice.h"

#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <fmt/format.h>

namespace mlgo {
namespace {

struct CalibrateFlags {
  CalibrateSettings Settings;
  std::string Output;
  bool Json = false;
};

int calibrate(CalibrateFlags &F) {
  auto Cpu = chooseCpu("native", "");
  if (!Cpu)
    return reportError(Cpu.takeError());
  // The profile names the CPU: a name the host's features contradict is worth a word.
  if (!Cpu->Warning.empty())
    llvm::WithColor::warning(llvm::errs(), "mlgo-ra") << "calibrate: " << Cpu->Warning << "\n";
  auto C = calibrateHost(F.Settings);
  if (!C)
    return reportError(C.takeError());
  Json Profile = calibrationJson(*C, Cpu->Name);
  if (!F.Output.empty())
    if (llvm::Error E = writeJsonFile(F.Output, Profile))
      return reportError(std::move(E));
  if (F.Json) {
    auto Text = serializeJson(Profile, "stdout");
    if (!Text)
      return reportError(Text.takeError());
    llvm::outs() << *Text << "\n";
    return Success;
  }
  llvm::outs() << fmt::format("calibrate: {} (LLVM: {}), clock {:.3f} GHz\n", C->Host,
                              Cpu->Name, C->ClockGHz);
  llvm::outs() << fmt::format("  {:<20} {:>7} {:>14}  {}\n", "loop", "cycles", "store to load",
                              "code");
  for (const LoopCycles &L : C->Loops)
    llvm::outs() << fmt::format("  {:<20} {:>7.2f} {:>14}  {}\n", L.Name, L.Cycles,
                                hasStoreToLoadPath(L) ? fmt::format("{:.2f}", L.path()) : "-",
                                L.Code);
  llvm::outs() << (C->Profile.RenamedReloadCycles
                       ? fmt::format("  stack slots are renamed: a reload has its value {} "
                                     "cycles after the spill's data\n",
                                     *C->Profile.RenamedReloadCycles)
                       : std::string("  stack slots are not renamed: reloads are forwarded "
                                     "from the store\n"));
  if (C->Profile.ForwardedReloadCycles)
    llvm::outs() << fmt::format("  {} has its value {} cycles after the store issued\n",
                                C->Profile.RenamedReloadCycles
                                    ? "a reload not renamed (folded into an operation, or "
                                      "of another size)"
                                    : "a forwarded reload",
                                *C->Profile.ForwardedReloadCycles);
  if (C->Profile.SlotOperationCycles)
    llvm::outs() << fmt::format("  an add to a stack slot has the value stored there {} "
                                "cycles after the store\n",
                                *C->Profile.SlotOperationCycles);
  llvm::outs() << (C->Profile.SpeculativeLoads
                       ? "  loads go ahead of older stores whose addresses are not known\n"
                       : "  loads wait for older stores' addresses\n");
  if (C->Profile.StoresPerCycle)
    llvm::outs() << fmt::format("  {} plain store{} issue a cycle\n", *C->Profile.StoresPerCycle,
                                *C->Profile.StoresPerCycle == 1 ? "" : "s");
  for (const FetchCycles &B : C->Fetch)
    llvm::outs() << fmt::format("  {:<20} {:>7.2f} cycles a block of lea; lea; jmp at offset {} "
                                "of its line\n",
                                B.Name, B.Cycles, B.Offset);
  for (const LoopCycles &L : C->FrontEnd)
    llvm::outs() << fmt::format("  {:<20} {:>7.2f} cycles an iteration of {}\n", L.Name,
                                L.Cycles, L.Code);
  const CoreProfile &P = C->Profile;
  if (!P.FetchLineBytes)
    llvm::outs() << "  the front end keeps up with dispatch (no fetch line found)\n";
  else
    llvm::outs() << fmt::format(
        "  the front end fetches {} block{} a cycle, split at {}-byte lines{}{}\n",
        P.FetchBlocksPerCycle.value_or(1), P.FetchBlocksPerCycle.value_or(1) == 1 ? "" : "s",
        *P.FetchLineBytes,
        P.LineOps ? fmt::format("; a line delivers {} operations at once", *P.LineOps) : "",
        P.SplitJumpCycles
            ? fmt::format("; a jump split from its line costs {} more", *P.SplitJumpCycles)
            : "");
  if (!F.Output.empty())
    llvm::outs() << fmt::format("  profile written to {} (replay --core-profile {})\n",
                                F.Output, F.Output);
  return Success;
}

} // namespace

CommandHandle addCalibrateCommand(CLI::App &Parent) {
  auto Flags = std::make_shared<CalibrateFlags>();
  CLI::App *Cmd = Parent.add_subcommand(
      "calibrate",
      "Measure what this host's core does that its LLVM scheduling model does not say "
      "(whether a reload of a spilled register waits for the store: memory renaming; how "
      "long it waits; how soon an add to a stack slot has the value stored there; whether "
      "loads wait for older stores' unknown addresses; how many stores issue a cycle; the "
      "line the front end fetches by, its blocks a cycle, the operations a line delivers at "
      "once and what a jump split across a line costs) "
      "with loops of x86-64 instructions timed by CPU seconds, "
      "and write the core profile that "
      "replay and train read with --core-profile. Run it on an otherwise idle machine; it "
      "takes a few seconds.");
  Cmd->add_option("-o,--output", Flags->Output, "The profile file to write (JSON)");
  Cmd->add_option("--runs", Flags->Settings.Runs,
                  "Rounds, each running every loop once; a loop's fastest counts")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1000u));
  Cmd->add_flag("--json", Flags->Json, "Print the profile and the measurements as JSON");
  return {Cmd, [Flags] { return calibrate(*Flags); }};
}

} // namespace mlgo
