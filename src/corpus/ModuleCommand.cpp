/// \file
/// A module's recorded cc1 command and the argv that recompiles the module from its
/// bitcode, as google/ml-compiler-opt's corpus.py builds it.
#include "Corpus.h"
#include "support/Error.h"
#include "support/InputFile.h"

#include "llvm/Support/MemoryBuffer.h"

namespace mlgo {

std::vector<std::string> splitCommand(llvm::StringRef Bytes) {
  std::vector<std::string> Args;
  llvm::SmallVector<llvm::StringRef, 64> Parts;
  Bytes.split(Parts, '\0', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
  if (!Parts.empty() && Parts.back().empty())
    Parts.pop_back();
  for (llvm::StringRef Part : Parts)
    Args.push_back(Part.str());
  return Args;
}

llvm::Expected<std::vector<std::string>> readModuleCommand(const Corpus &C,
                                                           llvm::StringRef Module) {
  std::vector<std::string> Args;
  if (!C.GlobalCommandOverride.empty()) {
    Args = C.GlobalCommandOverride;
  } else {
    std::string Path = modulePath(C, Module, ".cmd");
    auto Buffer = readRegularFile(Path);
    if (!Buffer)
      return Buffer.takeError();
    Args = splitCommand((*Buffer)->getBuffer());
    if (Args.empty() || Args.front() != "-cc1")
      return inputError(Path, "not a cc1 command: it does not start with -cc1");
  }
  if (!Args.empty() && Args.front() == "-cc1")
    Args.erase(Args.begin());
  return Args;
}

llvm::Expected<std::vector<std::string>> sanitizedModuleCommand(const Corpus &C,
                                                                llvm::StringRef Module) {
  auto Recorded = readModuleCommand(C, Module);
  if (!Recorded)
    return Recorded.takeError();
  std::string Origin = C.GlobalCommandOverride.empty()
                           ? modulePath(C, Module, ".cmd")
                           : modulePath(C, "", "corpus_description.json");
  return sanitizeCommand(*Recorded, Origin);
}

llvm::Expected<std::vector<std::string>> buildRecompileCommand(const Corpus &C,
                                                               llvm::StringRef Module) {
  auto Args = sanitizedModuleCommand(C, Module);
  if (!Args)
    return Args.takeError();
  Args->insert(Args->begin(), "-cc1");
  Args->push_back("-emit-obj"); // the sanitizer dropped the recorded action
  std::vector<std::string> Inputs = moduleInputArguments(C, Module);
  Args->insert(Args->end(), Inputs.begin(), Inputs.end());
  return Args;
}

std::string commandPath(llvm::StringRef Path) {
  return Path.starts_with("@") ? "./" + Path.str() : Path.str();
}

std::vector<std::string> moduleInputArguments(const Corpus &C, llvm::StringRef Module) {
  std::vector<std::string> Args = {"-x", "ir", commandPath(modulePath(C, Module, ".bc"))};
  if (C.HasThinLTO)
    Args.insert(Args.end(), {"-fthinlto-index=" + modulePath(C, Module, ".thinlto.bc"),
                             "-mllvm", "-thinlto-assume-merged"});
  return Args;
}

} // namespace mlgo
