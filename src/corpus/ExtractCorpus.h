/// \file
/// The extract-corpus stage: turns a build (objects compiled with
/// -Xclang -fembed-bitcode=all, or a local ThinLTO link's saved temporaries) into a
/// corpus that clang -cc1 recompiles module by module, independently of the build system.
#pragma once

#include "support/Json.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace mlgo {

enum class InputKind {
  Auto,            ///< decide from the input (see detectInputKind)
  Directory,       ///< every *.o / *.obj below a directory
  CompileCommands, ///< compile_commands.json: the -o operand of each command
  LinkerParams,    ///< a linker parameter (response) file: its object operands
  ThinLTOLocal,    ///< *.3.import.bc + *.thinlto.bc from lld --save-temps=import
};

llvm::StringRef inputKindName(InputKind Kind);
std::optional<InputKind> parseInputKind(llvm::StringRef Name);

/// A directory holding *.3.import.bc is a local ThinLTO build; any other directory is a
/// directory of objects; a file whose content starts with '[' is compile_commands.json;
/// any other file is a linker parameter file.
llvm::Expected<InputKind> detectInputKind(llvm::StringRef Input);

struct ExtractCorpusOptions {
  std::string Input;
  InputKind Kind = InputKind::Auto;
  std::string OutputDir;
  /// Where relative object paths of a parameter file start (default: the working
  /// directory, as for the linker that read it).
  std::string ObjectBaseDir;
  /// Keep only modules with an option (a whole '\0'-separated argument) matching this
  /// regular expression.
  std::optional<std::string> CmdFilter;
  /// The cc1 command of every module; required for local ThinLTO, which records none.
  std::vector<std::string> GlobalCommandOverride;
  /// Worker threads; 0 means one per core.
  unsigned Threads = 0;
  /// Show a progress line on a terminal.
  bool ShowProgress = true;
};

struct SkippedObject {
  std::string Object;
  std::string Reason;
};

struct ExtractCorpusResult {
  InputKind Kind = InputKind::Auto;
  std::string OutputDir;
  size_t ObjectsScanned = 0;
  bool HasThinLTO = false;
  std::vector<std::string> Modules;
  std::vector<SkippedObject> Skipped;
  uint64_t BytesWritten = 0;
  double Seconds = 0;

  Json toJSON() const;
};

/// Extracts every module of Opts.Input into Opts.OutputDir, in parallel, writing each
/// file atomically and corpus_description.json last; a failed run removes any
/// corpus_description.json it would have replaced, so no stale corpus looks complete.
llvm::Expected<ExtractCorpusResult> runExtractCorpus(const ExtractCorpusOptions &Opts);

} // namespace mlgo
