/// \file
/// mlgo-ra trace record | import | show: options → TraceRecordOptions → runTraceRecord,
/// TraceImportOptions → runTraceImport, or a summary of a .bbtrace.
#include "Commands.h"
#include "ExitCode.h"
#include "ToolDirectory.h"
#include "support/Printable.h"
#include "trace/Trace.h"
#include "trace/TraceImport.h"

#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <fmt/format.h>

namespace mlgo {
namespace {

struct TraceFlags {
  TraceRecordOptions Record;
  TraceImportOptions Import;
  std::string ImportFormatName, ShowPath;
  size_t Top = 10;
  bool Json = false, Events = false;
};

int record(TraceFlags &F) {
  if (F.Record.ValgrindLibDir.empty())
    if (const char *Dir = std::getenv("MLGO_RA_VALGRIND_LIB"))
      F.Record.ValgrindLibDir = Dir;
  if (F.Record.ValgrindLibDir.empty())
    F.Record.ValgrindLibDir = mlgotraceDirectory();
  F.Record.ShowProgress = !F.Json;
  auto Result = runTraceRecord(F.Record);
  if (!Result)
    return reportError(Result.takeError());
  if (!Result->ValgrindMessages.empty())
    llvm::errs() << "mlgo-ra: warning: valgrind: " << printable(Result->ValgrindMessages)
                 << "\n";
  if (F.Json)
    llvm::outs() << dumpJson(Result->toJSON()) << "\n";
  else
    llvm::errs() << fmt::format(
        "trace record: {} instructions in {} events written to {} ({:.1f} KB{}{}, {:.2f} "
        "s); the program exited with {}\n",
        Result->Instructions, Result->Events, F.Record.Output, Result->Bytes / 1e3,
        Result->UnmappedCodeKept
            ? fmt::format(", {} chunks of unmapped code", Result->CodeChunks)
            : "",
        Result->LoadDependencesKept
            ? fmt::format(", {} data loads of which {:.1f}% of executions depend on a "
                          "recent store",
                          Result->DataLoads,
                          100.0 * Result->DependentExecutions /
                              std::max<uint64_t>(1, Result->DataLoadExecutions))
            : "",
        Result->Seconds, Result->ProgramExitCode);
  return Result->ProgramExitCode;
}

int import(TraceFlags &F) {
  F.Import.Format =
      F.ImportFormatName == "lackey" ? ImportFormat::Lackey : ImportFormat::Drmemtrace;
  auto Result = runTraceImport(F.Import);
  if (!Result)
    return reportError(Result.takeError());
  if (F.Json)
    llvm::outs() << dumpJson(Result->toJSON()) << "\n";
  else
    llvm::errs() << fmt::format("trace import: {} instructions of {} threads in {} events "
                                "written to {} ({:.1f} KB, {:.2f} s)\n",
                                Result->Instructions, Result->Threads, Result->Events,
                                F.Import.Output, Result->Bytes / 1e3, Result->Seconds);
  return Success;
}

int show(TraceFlags &F) {
  if (F.Events) {
    if (llvm::Error E = printTraceEvents(F.ShowPath, llvm::outs()))
      return reportError(std::move(E));
    return Success;
  }
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
                              S->Path, printable(S->Binary), printable(S->Identity), S->Instructions, S->Events,
                              S->InstructionsByThread.size(), Share(S->MappedInstructions),
                              S->PaddingInstructions, S->PartialSegments);
  llvm::outs() << (S->UnmappedCodeKept
                       ? fmt::format("  unmapped code kept: {} instructions in {} chunks "
                                     "({:.1f} KB of code)\n",
                                     S->UnmappedCodeInstructions, S->CodeChunks,
                                     S->CodeChunkBytes / 1e3)
                       : std::string("  unmapped code counted only (trace record "
                                     "--keep-unmapped keeps its bytes)\n"));
  llvm::outs() << "hottest functions:\n";
  for (const auto &[Name, Count] : S->HotFunctions)
    llvm::outs() << fmt::format("  {:6.2f}%  {}\n", Share(Count), printable(Name));
  llvm::outs() << "hottest blocks:\n";
  for (const auto &[Name, Count] : S->HotBlocks)
    llvm::outs() << fmt::format("  {:6.2f}%  {}\n", Share(Count), printable(Name));
  llvm::outs() << "unmapped instructions by module:\n";
  for (const auto &[Module, Count] : S->UnmappedByModule)
    llvm::outs() << fmt::format("  {:12}  {}\n", Count, printable(Module));
  return Success;
}

} // namespace

CommandHandle addTraceCommand(CLI::App &Parent) {
  auto Flags = std::make_shared<TraceFlags>();
  CLI::App *Cmd = Parent.add_subcommand(
      "trace", "Record one run of a program and derive its segment trace (.bbtrace), "
               "import one from another tool's trace, or summarize one.");
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
                     "else ../libexec/mlgo-ra beside the mlgo-ra binary, else the build "
                     "tree's)");
  Record->add_flag("--keep-unmapped", Flags->Record.KeepUnmappedCode,
                   "Keep the bytes of code that ran outside the binary's blocks (shared "
                   "libraries, startup code), for replay --unmapped replay; makes the trace "
                   "larger");
  Record->add_flag("!--no-load-dependences", Flags->Record.RecordLoadDependences,
                   "Do not record which data loads read what a recent store wrote (the "
                   "trace is then version 1 or 2; the flow engine makes every data load "
                   "wait for older stores' addresses). Recording them slows tracing");
  Record->add_flag("--json", Flags->Json, "Print a machine-readable summary on stdout");
  Record->add_option("command", Flags->Record.Command, "-- PROGRAM ARGS...")->required();
  CLI::App *Import = Cmd->add_subcommand(
      "import", "Derive a segment trace from an instruction trace recorded by another tool "
                "(Valgrind's Lackey, DynamoRIO's drmemtrace).");
  Import->add_option("--binary", Flags->Import.Binary,
                     "The binary that ran, built with -fbasic-block-address-map")
      ->required();
  Import->add_option("--format", Flags->ImportFormatName,
                     "Who wrote the input: Valgrind's Lackey or DynamoRIO's drmemtrace")
      ->required()
      ->check(CLI::IsMember({"lackey", "drmemtrace"}));
  Import->add_option("-o,--output", Flags->Import.Output, "The .bbtrace to write")
      ->required();
  Import->add_option("--modules", Flags->Import.ModulesLog,
                     "drmemtrace: the modules.log (default: found beside the input)");
  Import->add_flag("--json", Flags->Json, "Print a machine-readable summary on stdout");
  Import->add_option("input", Flags->Import.Input,
                     "lackey: the log (--log-file); drmemtrace: a thread's trace file or "
                     "the output directory")
      ->required();
  CLI::App *Show = Cmd->add_subcommand("show", "Summarize a .bbtrace");
  Show->add_option("trace", Flags->ShowPath, "The .bbtrace file")->required();
  Show->add_option("--top", Flags->Top, "How many hottest functions and blocks to list");
  CLI::Option *ShowJson = Show->add_flag("--json", Flags->Json, "Print the summary as JSON");
  Show->add_flag("--events", Flags->Events, "Print every event, one line each")
      ->excludes(ShowJson);
  return {Cmd, [Flags, Record, Import] {
            return Record->parsed()   ? record(*Flags)
                   : Import->parsed() ? import(*Flags)
                                      : show(*Flags);
          }};
}

} // namespace mlgo
