/// \file
/// The subcommands of mlgo-ra. Each <Stage>Command.cpp adds its options to a CLI11
/// subcommand and returns the action that runs the stage; main.cpp lists them all.
#pragma once

#include "llvm/Support/Error.h"
#include <CLI/CLI.hpp>
#include <functional>

namespace mlgo {

/// A subcommand added to the parser, and what runs it once parsed (returning the
/// process exit code).
struct CommandHandle {
  CLI::App *Parsed;
  std::function<int()> Run;
};

CommandHandle addExtractCorpusCommand(CLI::App &Parent);
CommandHandle addTraceCommand(CLI::App &Parent);
CommandHandle addSubsetCommand(CLI::App &Parent);
CommandHandle addCompileCommand(CLI::App &Parent);
CommandHandle addReplayCommand(CLI::App &Parent);
CommandHandle addTrainCommand(CLI::App &Parent);
CommandHandle addMeasureCommand(CLI::App &Parent);
CommandHandle addCalibrateCommand(CLI::App &Parent);
CommandHandle addExportCommand(CLI::App &Parent);

/// Prints every error in \p E as "mlgo-ra: error: <message>" and returns the exit code:
/// BadInput when all of them blame the input, Failure otherwise.
int reportError(llvm::Error E);

/// reportError for commands that install the interrupt handler: after an interrupt,
/// prints only "mlgo-ra: error: interrupted" and returns Interrupted (130).
int reportStageError(llvm::Error E);

} // namespace mlgo
