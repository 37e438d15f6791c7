/// \file
/// JSON artifacts. nlohmann-json throws; this is the one place that catches, so no
/// exception reaches LLVM code (docs/style.md, Errors). Every artifact names its format
/// and version.
#pragma once

#include "Error.h"
#include "llvm/Support/Error.h"
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace mlgo {

using Json = nlohmann::ordered_json;

/// Parses \p Path; a missing file, one that is not a regular file, or a syntax error is
/// an InputError naming it.
llvm::Expected<Json> readJsonFile(llvm::StringRef Path);

/// Parses \p Text, read from \p Input; a syntax error is an InputError naming it.
llvm::Expected<Json> parseJson(llvm::StringRef Text, llvm::StringRef Input);

/// Writes \p Value (indented, newline-terminated) through a temporary file and a rename;
/// refuses (as serializeJson) a value holding a NaN or an infinity.
llvm::Error writeJsonFile(llvm::StringRef Path, const Json &Value);

/// Serializes compactly or indented. JSON has no NaN or infinity, and nlohmann-json
/// would write them as null: such a value is an error naming \p Output and where in
/// the value the number is, so no output ever holds a null where a number belongs.
llvm::Expected<std::string> serializeJson(const Json &Value, llvm::StringRef Output,
                                          int Indent = 2);

/// Serializes for a message; never throws (invalid UTF-8 is replaced; a NaN or an
/// infinity shows as null). Outputs use serializeJson.
std::string dumpJson(const Json &Value, int Indent = 2);

namespace detail {
template <typename T> struct IsVector : std::false_type {};
template <typename U, typename A> struct IsVector<std::vector<U, A>> : std::true_type {};

/// Why the number \p V cannot become a T as it is (nlohmann-json converts with a cast:
/// 1e39 would become an infinite float, 2.5 the int 2, -1 a huge unsigned), or "".
/// Values that are not numbers are left to nlohmann-json's type check.
template <typename T> std::string numberProblem(const Json &V) {
  if constexpr (IsVector<T>::value) {
    if (!V.is_array())
      return "";
    for (size_t I = 0; I < V.size(); ++I)
      if (std::string Problem = numberProblem<typename T::value_type>(V[I]);
          !Problem.empty())
        return "element " + std::to_string(I) + ": " + Problem;
    return "";
  } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    if (!V.is_number())
      return "";
    using Limits = std::numeric_limits<T>;
    bool Fits = false;
    if (V.is_number_unsigned()) {
      Fits = V.get<uint64_t>() <= uint64_t(Limits::max());
    } else if (V.is_number_integer()) {
      int64_t I = V.get<int64_t>();
      Fits = I >= 0 ? uint64_t(I) <= uint64_t(Limits::max())
                    : std::is_signed_v<T> && I >= int64_t(Limits::min());
    }
    if (Fits)
      return "";
    return V.dump() + " is not an integer from " + std::to_string(Limits::min()) +
           " to " + std::to_string(Limits::max());
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!V.is_number())
      return "";
    double D = V.get<double>();
    if (std::isfinite(D) && std::fabs(D) <= double(std::numeric_limits<T>::max()))
      return "";
    return V.dump() + " is not a finite " +
           (std::is_same_v<T, float> ? "float" : "double");
  } else {
    return "";
  }
}
} // namespace detail

/// Reads a required member of an object as T; \p Path names the file in errors. A
/// number must fit T exactly: an integer in T's range, a finite float or double.
template <typename T>
llvm::Expected<T> getJsonField(const Json &Object, const char *Key,
                               llvm::StringRef Path) {
  if (!Object.is_object())
    return llvm::make_error<InputError>(Path.str(), "expected a JSON object");
  auto It = Object.find(Key);
  if (It == Object.end())
    return llvm::make_error<InputError>(Path.str(),
                                        std::string("missing field '") + Key + "'");
  if (std::string Problem = detail::numberProblem<T>(*It); !Problem.empty())
    return llvm::make_error<InputError>(Path.str(),
                                        std::string("field '") + Key + "': " + Problem);
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

/// A member of an object as getJsonField reads it, or none if it is missing or not a
/// T: for what is read leniently (a cache entry, a log or message that may hold
/// anything), where a problem has no message of its own.
template <typename T> std::optional<T> findJsonField(const Json &Object, const char *Key) {
  auto Value = getJsonField<T>(Object, Key, "");
  if (!Value) {
    llvm::consumeError(Value.takeError());
    return std::nullopt;
  }
  return std::optional<T>(std::move(*Value));
}

/// Checks an artifact's "format" and "version" members: "not a WHAT (format 'X')", and
/// "FORMAT-NOUN format version N (this mlgo-ra reads M)", naming \p Path.
llvm::Error checkJsonFormat(const Json &Value, llvm::StringRef Path, llvm::StringRef Format,
                            int Version, llvm::StringRef What, llvm::StringRef FormatNoun);

} // namespace mlgo
