/// \file
/// corpus_description.json: {"has_thinlto": bool, "modules": [...],
/// "global_command_override": [...]?}, as google/ml-compiler-opt writes and reads it.
#include "Corpus.h"
#include "support/Error.h"
#include "support/Json.h"
#include "support/SafePath.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace mlgo {

std::string modulePath(const Corpus &C, llvm::StringRef Module, llvm::StringRef Suffix) {
  llvm::SmallString<256> Path(C.Directory);
  llvm::sys::path::append(Path, Module + Suffix);
  return std::string(Path);
}

static llvm::Error checkModuleFiles(const Corpus &C, llvm::StringRef DescriptionPath) {
  for (const std::string &Module : C.Modules) {
    if (!isContainedRelativePath(Module))
      return inputError(DescriptionPath, "module name '{}' is not a relative path inside the corpus",
                        Module);
    std::vector<std::string> Suffixes = {".bc"};
    if (C.GlobalCommandOverride.empty())
      Suffixes.push_back(".cmd");
    if (C.HasThinLTO)
      Suffixes.push_back(".thinlto.bc");
    for (const std::string &Suffix : Suffixes) {
      std::string Path = modulePath(C, Module, Suffix);
      if (!llvm::sys::fs::exists(Path))
        return inputError(DescriptionPath, "module '{}' has no file {}", Module, Path);
    }
  }
  return llvm::Error::success();
}

llvm::Expected<Corpus> loadCorpus(llvm::StringRef Directory) {
  llvm::SmallString<256> Path(Directory);
  llvm::sys::path::append(Path, CorpusDescriptionFile);
  auto Description = readJsonFile(Path);
  if (!Description)
    return Description.takeError();

  Corpus C;
  C.Directory = Directory.str();
  auto HasThinLTO = getJsonField<bool>(*Description, "has_thinlto", Path);
  if (!HasThinLTO)
    return HasThinLTO.takeError();
  C.HasThinLTO = *HasThinLTO;
  auto Modules = getJsonField<std::vector<std::string>>(*Description, "modules", Path);
  if (!Modules)
    return Modules.takeError();
  C.Modules = std::move(*Modules);
  auto Override = getOptionalJsonField<std::vector<std::string>>(
      *Description, "global_command_override", Path);
  if (!Override)
    return Override.takeError();
  if (*Override) {
    // ml-compiler-opt writes this placeholder for local ThinLTO and expects an edit.
    if (**Override == std::vector<std::string>{"<UNSPECIFIED>"})
      return inputError(Path, "global_command_override is <UNSPECIFIED>: replace it with "
                              "the cc1 command that compiles every module");
    C.GlobalCommandOverride = std::move(**Override);
  }
  if (llvm::Error E = checkModuleFiles(C, Path))
    return E;
  return C;
}

llvm::Error writeCorpusDescription(const Corpus &C) {
  Json Description = Json::object();
  if (!C.GlobalCommandOverride.empty())
    Description["global_command_override"] = C.GlobalCommandOverride;
  Description["has_thinlto"] = C.HasThinLTO;
  Description["modules"] = C.Modules;
  llvm::SmallString<256> Path(C.Directory);
  llvm::sys::path::append(Path, CorpusDescriptionFile);
  return writeJsonFile(Path, Description);
}

} // namespace mlgo
