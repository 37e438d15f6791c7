// The framing of the advisor channel, fed the way a FIFO delivers it: in arbitrary
// pieces, with raw observation bytes that may contain newlines.
#include "ProtocolReader.h"
#include "TestSupport.h"

using namespace mlgo;
using namespace mlgo::test;

namespace {

std::string header(const Json &Features) {
  Json H = {{"features", Features},
            {"advice",
             {{"name", "index_to_evict"}, {"type", "int64_t"}, {"port", 0},
              {"shape", {1}}}}};
  return dumpJson(H, -1) + "\n";
}

std::string observation(uint64_t Index, const Observation &O) {
  std::vector<uint8_t> Bytes = O.toBytes();
  return "{\"observation\":" + std::to_string(Index) + "}\n" +
         std::string(Bytes.begin(), Bytes.end()) + "\n";
}

} // namespace

TEST_CASE("Messages are framed whatever the chunk sizes", "[compile]") {
  Observation O;
  O.setInt(F_mask, 10, 1);                      // 10 is '\n' as a byte
  O.setFloat(F_use_def_density, 10, 1.4e-44f); // so is this float's low byte
  std::string Stream = header(featureSpecsToJson()) + "{\"context\":\"f\"}\n" +
                       observation(0, O) + observation(1, O);
  for (size_t Chunk : {size_t(1), size_t(7), size_t(3436), Stream.size()}) {
    ProtocolReader Reader("clang-22");
    std::vector<ProtocolMessage> Messages;
    for (size_t I = 0; I < Stream.size(); I += Chunk) {
      Reader.append(Stream.data() + I, std::min(Chunk, Stream.size() - I));
      while (auto M = requireOk(Reader.next()))
        Messages.push_back(std::move(*M));
    }
    REQUIRE(!Reader.pending());
    REQUIRE(Messages.size() == 4);
    REQUIRE(Messages[0].K == ProtocolMessage::Header);
    REQUIRE(Messages[1].K == ProtocolMessage::Context);
    REQUIRE(Messages[1].Function == "f");
    REQUIRE(Messages[3].K == ProtocolMessage::Decision);
    REQUIRE(Messages[3].Index == 1);
    REQUIRE(Messages[3].Features.toBytes() == O.toBytes());
  }
}

TEST_CASE("A compiler with another feature set is refused", "[compile]") {
  Json Features = featureSpecsToJson();
  Features.push_back({{"name", "instructions"}, {"type", "int64_t"}, {"shape", {1, 300}}});
  ProtocolReader Reader("clang-23");
  std::string Stream = header(Features);
  Reader.append(Stream.data(), Stream.size());
  REQUIRE(requireError(Reader.next()) ==
          "clang-23 (advisor header): 22 features, but llvm-22-regalloc-evict has 21");
}

TEST_CASE("Anything outside the protocol is an error", "[compile]") {
  ProtocolReader Reader("clang-22");
  std::string Stream = header(featureSpecsToJson()) + "{\"reward\":1}\n";
  Reader.append(Stream.data(), Stream.size());
  requireOk(Reader.next());
  REQUIRE(requireError(Reader.next()) ==
          "clang-22: unexpected message on the advisor channel: {\"reward\":1}");
}
