/// \file
/// mlgo-ra trace record | show: options → TraceRecordOptions → runTraceRecord, or a
/// summary of a recorded .bbtrace.
#include "Commands.h"
#include "ExitCode.h"
#include "trace/Trace.h"

#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <fmt/format.h>

namespace mlgo {
namespace {

struct TraceFlags {
  TraceRecordOptions Record;
  std::string ShowPath;
  size_t Top = 10;
  bool Json = false;
};

int record(TraceFlags &F) {
  if (F.Record.ValgrindLibDir.empty())
    if (const char *Dir = std::getenv("MLGO_RA_VALGRIND_LIB"))
      F.Record.ValgrindLibDir = Dir;
  if (F.Record.ValgrindLibDir.empty())
    F.Record.ValgrindLibDir = MLGO_RA_VALGRIND_LIB_DIR;
  F.Record.ShowProgress = !F.Json;
  auto Result = runTraceRecord(F.Record);
  if (!Result)
    return reportError(Result.takeError());
  if (F.Json)
    llvm::outs() << dumpJson(Result->toJSON()) << "\n";
  else
    llvm::errs() << fmt::format("trace record: {} instructions in {} events written to {} "
                                "({:.1f} KB, {:.2f} s); the program exited with {}\n",
                                Result->Instructions, Result->Events, F.Record.Output,
                                Result->Bytes / 1e3, Result->Seconds,
                                Result->ProgramExitCode);
  return Result->ProgramExitCode;
}

int show(TraceFlags &F) {
  auto S = summarizeTrace(F.ShowPath, F.Top);
  if (!S)
    return reportError(S.takeError());
  if (F.Json) {
    llvm::outs() << dumpJson(S->toJSON()) << "\n";
    return Success;
  }
  auto Share = [&](uint64_t N) { return S->Instructions ? 100.0 * N / S->Instructions : 0; };
  llvm::outs() << fmt::format("trace {}\n  binary {} ({})\n  instructions {}  events {}  "
                              "threads {}\n  in mapped code {:.2f}% (padding {}, partial "
                              "segments {})\n",
                              S->Path, S->Binary, S->Identity, S->Instructions, S->Events,
                              S->InstructionsByThread.size(), Share(S->MappedInstructions),
                              S->PaddingInstructions, S->PartialSegments);
  llvm::outs() << "hottest functions:\n";
  for (const auto &[Name, Count] : S->HotFunctions)
    llvm::outs() << fmt::format("  {:6.2f}%  {}\n", Share(Count), Name);
  llvm::outs() << "hottest blocks:\n";
  for (const auto &[Name, Count] : S->HotBlocks)
    llvm::outs() << fmt::format("  {:6.2f}%  {}\n", Share(Count), Name);
  llvm::outs() << "unmapped instructions by module:\n";
  for (const auto &[Module, Count] : S->UnmappedByModule)
    llvm::outs() << fmt::format("  {:12}  {}\n", Count, Module);
  return Success;
}

} // namespace

CommandHandle addTraceCommand(CLI::App &Parent) {
  auto Flags = std::make_shared<TraceFlags>();
  CLI::App *Cmd = Parent.add_subcommand(
      "trace", "Record one run of a program and derive its segment trace (.bbtrace), or "
               "summarize one.");
  Cmd->require_subcommand(1);
  CLI::App *Record = Cmd->add_subcommand(
      "record", "Run a program under the mlgotrace Valgrind tool and stream its instruction "
                "trace into a segment trace. Exits with the program's exit code.");
  Record->add_option("--binary", Flags->Record.Binary,
                     "The program's binary, built with -fbasic-block-address-map")
      ->required();
  Record->add_option("-o,--output", Flags->Record.Output, "The .bbtrace to write")
      ->required();
  Record->add_option("--valgrind", Flags->Record.Valgrind, "The valgrind to run");
  Record->add_option("--valgrind-lib", Flags->Record.ValgrindLibDir,
                     "Directory with the mlgotrace tool (default: $MLGO_RA_VALGRIND_LIB, "
                     "else the build's)");
  Record->add_flag("--json", Flags->Json, "Print a machine-readable summary on stdout");
  Record->add_option("command", Flags->Record.Command, "-- PROGRAM ARGS...")->required();
  CLI::App *Show = Cmd->add_subcommand("show", "Summarize a .bbtrace");
  Show->add_option("trace", Flags->ShowPath, "The .bbtrace file")->required();
  Show->add_option("--top", Flags->Top, "How many hottest functions and blocks to list");
  Show->add_flag("--json", Flags->Json, "Print the summary as JSON");
  return {Cmd, [Flags, Record] { return Record->parsed() ? record(*Flags) : show(*Flags); }};
}

} // namespace mlgo
