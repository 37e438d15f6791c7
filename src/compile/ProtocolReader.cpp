/// \file
/// Framing of LLVM's interactive protocol (llvm/lib/Analysis/InteractiveModelRunner.cpp
/// and TrainingLogger.cpp).
#include "ProtocolReader.h"

namespace mlgo {

llvm::Expected<std::optional<ProtocolMessage>> ProtocolReader::next() {
  // Drop consumed bytes now and then, not per message.
  if (Consumed > (1 << 16)) {
    Buffer.erase(0, Consumed);
    Consumed = 0;
  }
  size_t Newline = Buffer.find('\n', Consumed);
  if (Newline == std::string::npos)
    return std::nullopt;
  llvm::StringRef Line(Buffer.data() + Consumed, Newline - Consumed);
  Json Value = Json::parse(Line.begin(), Line.end(), nullptr, /*allow_exceptions=*/false);
  if (Value.is_discarded() || !Value.is_object())
    return stageError("{}: unexpected line on the advisor channel: {}", Source,
                      Line.take_front(200).str());
  ProtocolMessage M;
  if (!SawHeader) {
    M.K = ProtocolMessage::Header;
    Json Features = findJsonField<Json>(Value, "features").value_or(Json());
    if (llvm::Error E = checkFeatureSpecs(Features, Source + " (advisor header)"))
      return E;
    Json Advice = findJsonField<Json>(Value, "advice").value_or(Json());
    if (findJsonField<std::string>(Advice, "name") != "index_to_evict" ||
        findJsonField<std::string>(Advice, "type") != "int64_t")
      return stageError("{}: the advisor asks for {}, not an int64_t index_to_evict",
                        Source, dumpJson(Advice, -1));
    SawHeader = true;
    Consumed = Newline + 1;
    return M;
  }
  if (std::optional<std::string> Function = findJsonField<std::string>(Value, "context")) {
    M.K = ProtocolMessage::Context;
    M.Function = std::move(*Function);
    Consumed = Newline + 1;
    return M;
  }
  std::optional<uint64_t> Index = findJsonField<uint64_t>(Value, "observation");
  if (!Index)
    return stageError("{}: unexpected message on the advisor channel: {}", Source,
                      Line.take_front(200).str());
  size_t Size = observationByteSize();
  size_t Start = Newline + 1;
  if (Buffer.size() < Start + Size + 1)
    return std::nullopt; // the raw bytes are still coming
  if (Buffer[Start + Size] != '\n')
    return stageError("{}: observation {} is not followed by a newline", Source, *Index);
  auto Features = Observation::fromBytes(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(Buffer.data() + Start), Size));
  if (!Features)
    return Features.takeError();
  M.K = ProtocolMessage::Decision;
  M.Index = *Index;
  M.Features = std::move(*Features);
  Consumed = Start + Size + 1;
  return M;
}

} // namespace mlgo
