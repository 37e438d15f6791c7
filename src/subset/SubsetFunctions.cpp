/// \file
/// Reading back a subset's functions to compile (subset_functions.json).
#include "Subset.h"
#include "support/Error.h"

#include "llvm/Support/FileSystem.h"

namespace mlgo {

llvm::Expected<std::optional<std::vector<SubsetModule>>>
readSubsetFunctions(llvm::StringRef CorpusDirectory) {
  std::string Path = CorpusDirectory.str() + "/" + SubsetFunctionsFile;
  if (!llvm::sys::fs::exists(Path))
    return std::nullopt;
  auto Value = readJsonFile(Path);
  if (!Value)
    return Value.takeError();
  auto Format = getJsonField<std::string>(*Value, "format", Path);
  if (!Format)
    return Format.takeError();
  if (*Format != "mlgo-ra.subset")
    return inputError(Path, "is not a subset's function list (format '{}')", *Format);
  auto Modules = getJsonField<Json>(*Value, "modules", Path);
  if (!Modules)
    return Modules.takeError();
  if (!Modules->is_array())
    return inputError(Path, "field 'modules' is not an array");
  std::vector<SubsetModule> Out;
  for (const Json &Entry : *Modules) {
    auto Name = getJsonField<std::string>(Entry, "name", Path);
    if (!Name)
      return Name.takeError();
    auto Functions = getJsonField<std::vector<std::string>>(Entry, "functions", Path);
    if (!Functions)
      return Functions.takeError();
    Out.push_back({std::move(*Name), std::move(*Functions)});
  }
  return Out;
}

} // namespace mlgo
