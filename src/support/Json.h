/// \file
/// JSON artifacts. nlohmann-json throws; this is the one place that catches, so no
/// exception reaches LLVM code (STYLE.md, 7). Every artifact names its format and version.
#pragma once

#include "Error.h"
#include "llvm/Support/Error.h"
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace mlgo {

using Json = nlohmann::ordered_json;

/// Parses \p Path; a missing file or a syntax error is an InputError naming it.
llvm::Expected<Json> readJsonFile(llvm::StringRef Path);

/// Writes \p Value (indented, newline-terminated) through a temporary file and a rename.
llvm::Error writeJsonFile(llvm::StringRef Path, const Json &Value);

/// Serializes compactly or indented; never throws (invalid UTF-8 is replaced).
std::string dumpJson(const Json &Value, int Indent = 2);

/// Reads a required member of an object as T; \p Path names the file in errors.
template <typename T>
llvm::Expected<T> getJsonField(const Json &Object, const char *Key,
                               llvm::StringRef Path) {
  if (!Object.is_object())
    return llvm::make_error<InputError>(Path.str(), "expected a JSON object");
  auto It = Object.find(Key);
  if (It == Object.end())
    return llvm::make_error<InputError>(Path.str(),
                                        std::string("missing field '") + Key + "'");
  try {
    return It->template get<T>();
  } catch (const nlohmann::json::exception &E) {
    return llvm::make_error<InputError>(
        Path.str(), std::string("field '") + Key + "' has the wrong type: " + E.what());
  }
}

/// Like getJsonField, but a missing member gives std::nullopt.
template <typename T>
llvm::Expected<std::optional<T>> getOptionalJsonField(const Json &Object, const char *Key,
                                                      llvm::StringRef Path) {
  if (Object.is_object() && !Object.contains(Key))
    return std::optional<T>();
  auto Value = getJsonField<T>(Object, Key, Path);
  if (!Value)
    return Value.takeError();
  return std::optional<T>(std::move(*Value));
}

} // namespace mlgo
