/// \file
/// Sanitizing recorded cc1 commands. A corpus can come from anybody's build, and its
/// commands are run by our compiles: no option may load code into the compiler, and no
/// option may make it write a file other than the output the caller names.
#include "Corpus.h"
#include "support/Error.h"

#include "llvm/ADT/StringSet.h"

namespace mlgo {
namespace {

/// How an option carries its value.
enum class Form { Flag, Separate, Joined /* -opt=value or -optvalue */ };

struct OptionRule {
  const char *Name;
  Form Shape;
};

// cc1 options that make the compiler load and run code.
const OptionRule LoadsCode[] = {
    {"-load", Form::Separate},           {"-load=", Form::Joined},
    {"-fpass-plugin=", Form::Joined},    {"-fplugin=", Form::Joined},
    {"-fplugin-arg-", Form::Joined},     {"-add-plugin", Form::Separate},
    {"-add-plugin=", Form::Joined},      {"-plugin", Form::Separate},
    {"-plugin-arg-", Form::Joined},      {"-load-pass-plugin", Form::Separate},
    {"-load-pass-plugin=", Form::Joined},
};

// -mllvm options (the word after -mllvm) that load code.
const char *const LLVMLoadsCode[] = {"-load", "-load=", "-load-pass-plugin",
                                     "-load-pass-plugin="};

// cc1 options that write files, or name the input or index (supplied by the caller).
// Revisit when clang adds an output option: unknown options are kept.
const OptionRule WritesFiles[] = {
    {"-o", Form::Separate},
    {"-dependency-file", Form::Separate},
    {"-dependency-dot", Form::Separate},
    {"-MT", Form::Separate},
    {"-MQ", Form::Separate},
    {"-sys-header-deps", Form::Flag},
    {"-module-file-deps", Form::Flag},
    {"-header-include-file", Form::Separate},
    {"-header-include-format=", Form::Joined},
    {"-header-include-filtering=", Form::Joined},
    {"-split-dwarf-file", Form::Separate},
    {"-split-dwarf-output", Form::Separate},
    {"-coverage-notes-file=", Form::Joined},
    {"-coverage-notes-file", Form::Separate},
    {"-opt-record-file", Form::Separate},
    {"-opt-record-passes", Form::Separate},
    {"-opt-record-format", Form::Separate},
    {"-stack-usage-file", Form::Separate},
    {"-ftime-trace=", Form::Joined},
    {"-ftime-trace", Form::Flag},
    {"-stats-file=", Form::Joined},
    {"-diagnostic-log-file", Form::Separate},
    {"-fcrash-diagnostics-dir=", Form::Joined},
    {"-fmodules-cache-path=", Form::Joined},
    {"-fthinlto-index=", Form::Joined},
    {"-x", Form::Separate},
};

// -mllvm options that write files or open channels; our compiles set their own.
const char *const LLVMWritesFiles[] = {
    "-info-output-file=",     "-regalloc-evict-interactive-channel-base=",
    "-regalloc-training-log=", "-training-log=",
    "-inliner-interactive-channel-base=", "-interactive-model-runner-echo-reply",
};

bool matches(llvm::StringRef Arg, const OptionRule &Rule) {
  llvm::StringRef Name(Rule.Name);
  if (Rule.Shape == Form::Joined)
    return Arg.starts_with(Name) && Arg.size() > Name.size();
  return Arg == Name;
}

bool matchesAny(llvm::StringRef Arg, llvm::ArrayRef<const char *> Names) {
  for (llvm::StringRef Name : Names)
    if (Name.ends_with("=") ? Arg.starts_with(Name) : Arg == Name)
      return true;
  return false;
}

} // namespace

llvm::Expected<std::vector<std::string>> sanitizeCommand(llvm::ArrayRef<std::string> Args,
                                                         llvm::StringRef Origin) {
  std::vector<std::string> Kept;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg == "-mllvm" && I + 1 < Args.size()) {
      llvm::StringRef Value = Args[I + 1];
      if (matchesAny(Value, LLVMLoadsCode))
        return inputError(Origin, "refusing option '-mllvm {}': it loads code into the "
                                  "compiler", Value.str());
      if (!matchesAny(Value, LLVMWritesFiles))
        Kept.insert(Kept.end(), {Arg.str(), Value.str()});
      ++I;
      continue;
    }
    for (const OptionRule &Rule : LoadsCode)
      if (matches(Arg, Rule) || (Rule.Shape == Form::Joined && Arg == Rule.Name))
        return inputError(Origin, "refusing option '{}': it loads code into the compiler",
                          Arg.str());
    const OptionRule *Drop = nullptr;
    for (const OptionRule &Rule : WritesFiles)
      if (matches(Arg, Rule)) {
        Drop = &Rule;
        break;
      }
    if (!Drop) {
      Kept.push_back(Arg.str());
      continue;
    }
    if (Drop->Shape == Form::Separate)
      ++I; // drop the value too
  }
  return Kept;
}

} // namespace mlgo
