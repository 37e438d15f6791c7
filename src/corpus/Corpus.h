/// \file
/// The corpus: a directory of modules (<name>.bc, <name>.cmd, optionally
/// <name>.thinlto.bc) and corpus_description.json, in google/ml-compiler-opt's format.
/// Later stages load a corpus and ask for the argv that recompiles one module; that argv
/// is sanitized, because a corpus may come from an untrusted build.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace mlgo {

inline constexpr const char *CorpusDescriptionFile = "corpus_description.json";

struct Corpus {
  /// The directory holding the modules and corpus_description.json.
  std::string Directory;
  bool HasThinLTO = false;
  /// Module names, relative to Directory, without suffix ("src/a.o" for src/a.o.bc).
  std::vector<std::string> Modules;
  /// When non-empty, the cc1 command of every module (local ThinLTO has no .cmd files).
  std::vector<std::string> GlobalCommandOverride;
};

/// Reads <Directory>/corpus_description.json and checks that every module's .bc (and
/// .cmd or override, and .thinlto.bc when HasThinLTO) exists.
llvm::Expected<Corpus> loadCorpus(llvm::StringRef Directory);

/// Writes <C.Directory>/corpus_description.json atomically.
llvm::Error writeCorpusDescription(const Corpus &C);

/// <C.Directory>/<Module><Suffix>, e.g. suffix ".bc", ".cmd" or ".thinlto.bc".
std::string modulePath(const Corpus &C, llvm::StringRef Module, llvm::StringRef Suffix);

/// Splits the bytes of a .llvmcmd section or .cmd file at '\0' (a trailing '\0' does not
/// make an empty argument).
std::vector<std::string> splitCommand(llvm::StringRef Bytes);

/// The module's cc1 arguments as recorded (the override, or its .cmd), with the leading
/// "-cc1" removed. Not sanitized.
llvm::Expected<std::vector<std::string>> readModuleCommand(const Corpus &C,
                                                           llvm::StringRef Module);

/// Makes recorded cc1 arguments safe to run. Keeps only the options on an allow-list
/// of options that can change the code compiled from IR (CommandOptions.cpp); drops
/// options known not to matter for IR input and those naming the input, the outputs
/// (-o, dependency files, split DWARF, remarks, statistics, ...) or the action
/// (-emit-obj, -emit-llvm, -S, ...), which the caller supplies. Refuses (InputError
/// naming \p Origin) options that load code (-load, -fplugin=, -mllvm -load=, ...),
/// response files (@file) and every option it does not know.
llvm::Expected<std::vector<std::string>> sanitizeCommand(llvm::ArrayRef<std::string> Args,
                                                         llvm::StringRef Origin);

/// The module's cc1 arguments, sanitized, without "-cc1" and without input or output.
llvm::Expected<std::vector<std::string>> sanitizedModuleCommand(const Corpus &C,
                                                                llvm::StringRef Module);

/// Fails (InputError naming \p Path) unless \p Path is bitcode that LLVM can read
/// whole: checked before compiling it, so that a corrupt module is bad input.
llvm::Error checkModuleBitcode(llvm::StringRef Path);

/// \p Path as a compiler argument: "./@x" for "@x", which clang would read as a
/// response file.
std::string commandPath(llvm::StringRef Path);

/// The input of a module's recompile: "-x ir <name>.bc" and, for ThinLTO,
/// "-fthinlto-index=<name>.thinlto.bc -mllvm -thinlto-assume-merged".
std::vector<std::string> moduleInputArguments(const Corpus &C, llvm::StringRef Module);

/// The arguments after the compiler path that recompile \p Module:
/// "-cc1", its sanitized command, "-emit-obj", "-x ir <name>.bc" and, for ThinLTO,
/// "-fthinlto-index=<name>.thinlto.bc -mllvm -thinlto-assume-merged".
/// The caller appends "-o <output>".
llvm::Expected<std::vector<std::string>> buildRecompileCommand(const Corpus &C,
                                                               llvm::StringRef Module);

} // namespace mlgo
