/// \file
/// Reading and naming --sample's shard.
#include "replay/fast/Sampling.h"
#include "support/Error.h"

namespace mlgo {

llvm::Error parseSampling(llvm::StringRef Text, llvm::StringRef Option,
                          SpanSettings &Spans) {
  auto [Length, Every] = Text.split('/');
  uint64_t L = 0, E = 0;
  if (Length.getAsInteger(10, L) || Every.getAsInteger(10, E) || L == 0 || E < L)
    return inputError(Option, "'{}' is not LENGTH/EVERY: two event counts, 0 < LENGTH <= "
                              "EVERY (e.g. 1024/16384)",
                      Text.str());
  Spans.SampleLength = L;
  Spans.SampleEvery = E;
  return llvm::Error::success();
}

llvm::Error parseSampleOption(llvm::StringRef Text, llvm::StringRef Option,
                              SpanSettings &Spans, bool &AutoShard) {
  if (Text == "none")
    AutoShard = false;
  else if (Text != "auto")
    return parseSampling(Text, Option, Spans);
  return llvm::Error::success();
}

std::string samplingName(const SpanSettings &Spans) {
  return fmt::format("{}/{}", Spans.SampleLength, Spans.SampleEvery);
}

} // namespace mlgo
