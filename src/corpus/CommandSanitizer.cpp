/// \file
/// Sanitizing recorded cc1 commands. A corpus can come from anybody's build, and its
/// commands are run by our compiles: no option may load code into the compiler, and no
/// option may make it write a file other than the output the caller names. So the
/// sanitizer keeps only the options on an allow-list (CommandOptions.cpp), drops those
/// known not to matter for IR input, and refuses everything else, and any response file.
#include "CommandOptions.h"
#include "Corpus.h"
#include "support/Error.h"

namespace mlgo {

llvm::Expected<std::vector<std::string>> sanitizeCommand(llvm::ArrayRef<std::string> Args,
                                                         llvm::StringRef Origin) {
  // clang expands "@file" anywhere on its command line, before parsing options, and
  // the file could say anything (-load lib.so): refuse it wherever it is.
  for (const std::string &Arg : Args)
    if (llvm::StringRef(Arg).starts_with("@"))
      return inputError(Origin, "refusing '{}': clang would read more options from that "
                                "response file", Arg);
  std::vector<std::string> Kept;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg == "-mllvm") {
      if (I + 1 == Args.size())
        return inputError(Origin, "option '-mllvm' has no value");
      llvm::StringRef Value = Args[++I];
      switch (classifyLLVMOption(Value)) {
      case OptionClass::LoadsCode:
        return inputError(Origin, "refusing option '-mllvm {}': it loads code into the "
                                  "compiler", Value.str());
      case OptionClass::Unknown:
        return inputError(Origin, "refusing option '-mllvm {}': not one of the LLVM "
                                  "options known to be safe (see README, extract-corpus)",
                          Value.str());
      case OptionClass::Keep:
        Kept.insert(Kept.end(), {Arg.str(), Value.str()});
        break;
      case OptionClass::Drop:
        break;
      }
      continue;
    }
    // A word that is no option is an input, which the caller supplies.
    if (!Arg.starts_with("-"))
      continue;
    OptionMatch Match = classifyOption(Arg);
    if (Match.Class == OptionClass::LoadsCode)
      return inputError(Origin, "refusing option '{}': it loads code into the compiler",
                        Arg.str());
    if (Match.Class == OptionClass::Unknown)
      return inputError(Origin, "refusing option '{}': not one of the cc1 options known "
                                "to be safe (see README, extract-corpus)", Arg.str());
    if (Match.TakesNextWord && I + 1 == Args.size())
      return inputError(Origin, "option '{}' has no value", Arg.str());
    if (Match.Class == OptionClass::Keep) {
      Kept.push_back(Arg.str());
      if (Match.TakesNextWord)
        Kept.push_back(Args[I + 1]);
    }
    I += Match.TakesNextWord;
  }
  return Kept;
}

} // namespace mlgo
