/// \file
/// Splits what the compiler writes to B.out into messages: one JSON header line, then
/// `{"context":"<fn>"}` lines, and `{"observation":N}` lines each followed by the
/// observation's raw bytes and a newline.
#pragma once

#include "policy/FeatureSet.h"
#include "support/Json.h"

#include "llvm/Support/Error.h"
#include <optional>
#include <string>

namespace mlgo {

struct ProtocolMessage {
  enum Kind { Header, Context, Decision } K;
  std::string Function; ///< Context
  uint64_t Index = 0;   ///< Decision: the observation number
  Observation Features; ///< Decision
};

class ProtocolReader {
public:
  /// \p Source names the compiler in errors.
  explicit ProtocolReader(std::string Source) : Source(std::move(Source)) {}
  void append(const char *Data, size_t Size) { Buffer.append(Data, Size); }
  /// The next complete message, std::nullopt if more bytes are needed, or an error
  /// for anything outside the protocol (including an unknown feature set).
  llvm::Expected<std::optional<ProtocolMessage>> next();
  /// Bytes of an unfinished message are waiting.
  bool pending() const { return Consumed < Buffer.size(); }

private:
  std::string Source;
  std::string Buffer;
  size_t Consumed = 0;
  bool SawHeader = false;
};

} // namespace mlgo
