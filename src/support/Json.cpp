/// \file
/// Reading and writing JSON files with nlohmann-json, exceptions turned into llvm::Error.
#include "Json.h"
#include "Error.h"
#include "InputFile.h"
#include "OutputFile.h"

#include "llvm/Support/MemoryBuffer.h"
#include <cmath>
#include <optional>

namespace mlgo {

llvm::Expected<Json> readJsonFile(llvm::StringRef Path) {
  // A device or FIFO could give bytes without end (/dev/zero).
  auto Buffer = readRegularFile(Path);
  if (!Buffer)
    return Buffer.takeError();
  return parseJson((*Buffer)->getBuffer(), Path);
}

llvm::Expected<Json> parseJson(llvm::StringRef Text, llvm::StringRef Input) {
  try {
    return Json::parse(Text.begin(), Text.end());
  } catch (const nlohmann::json::exception &E) {
    return inputError(Input, "invalid JSON: {}", E.what());
  }
}

namespace {

/// Where in \p Value the first NaN or infinity is ("" for the value itself, else a
/// path such as "parameters/3"), or std::nullopt if it has none.
std::optional<std::string> findNonFinite(const Json &Value) {
  if (Value.is_number_float())
    return std::isfinite(Value.get<double>()) ? std::nullopt
                                              : std::optional<std::string>("");
  auto Below = [](const std::string &Key, const std::string &Rest) {
    return Rest.empty() ? Key : Key + "/" + Rest;
  };
  if (Value.is_array()) {
    for (size_t I = 0; I < Value.size(); ++I)
      if (auto Where = findNonFinite(Value[I]))
        return Below(std::to_string(I), *Where);
  } else if (Value.is_object()) {
    for (const auto &[Key, Member] : Value.items())
      if (auto Where = findNonFinite(Member))
        return Below(Key, *Where);
  }
  return std::nullopt;
}

} // namespace

llvm::Expected<std::string> serializeJson(const Json &Value, llvm::StringRef Output,
                                          int Indent) {
  if (auto Where = findNonFinite(Value))
    return stageError("{}: not written: {} is not a finite number, which JSON cannot hold",
                      Output, Where->empty() ? std::string("the value") : *Where);
  return dumpJson(Value, Indent);
}

std::string dumpJson(const Json &Value, int Indent) {
  return Value.dump(Indent, ' ', /*ensure_ascii=*/false,
                    nlohmann::json::error_handler_t::replace);
}

llvm::Error writeJsonFile(llvm::StringRef Path, const Json &Value) {
  auto Text = serializeJson(Value, Path);
  if (!Text)
    return Text.takeError();
  return writeFileAtomically(Path, *Text + "\n");
}

llvm::Error checkJsonFormat(const Json &Value, llvm::StringRef Path, llvm::StringRef Format,
                            int Version, llvm::StringRef What, llvm::StringRef FormatNoun) {
  auto Found = getJsonField<std::string>(Value, "format", Path);
  if (!Found)
    return Found.takeError();
  if (*Found != Format)
    return inputError(Path, "not a {} (format '{}')", What.str(), *Found);
  auto FoundVersion = getJsonField<int>(Value, "version", Path);
  if (!FoundVersion)
    return FoundVersion.takeError();
  if (*FoundVersion != Version)
    return inputError(Path, "{} format version {} (this mlgo-ra reads {})", FormatNoun.str(),
                      *FoundVersion, Version);
  return llvm::Error::success();
}

} // namespace mlgo
