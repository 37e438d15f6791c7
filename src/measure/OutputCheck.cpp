#include "Units.h"
#include "support/Error.h"

#include "llvm/Support/MemoryBuffer.h"

namespace mlgo {

llvm::Error compareOutputs(const std::vector<Contestant> &Contestants,
                           const std::vector<std::string> &Outputs) {
  auto read = [](const std::string &Path) -> llvm::Expected<std::string> {
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    if (!Buffer)
      return stageError("{}: cannot read a check run's output: {}", Path,
                        Buffer.getError().message());
    return (*Buffer)->getBuffer().str();
  };
  auto Expected = read(Outputs.front());
  if (!Expected)
    return Expected.takeError();
  for (size_t B = 1; B < Outputs.size(); ++B) {
    auto Got = read(Outputs[B]);
    if (!Got)
      return Got.takeError();
    if (*Got != *Expected)
      return inputError(Contestants[B].Path,
                        "prints other output than the baseline {} (a faster wrong program "
                        "is no gain; --no-output-check for programs that print their "
                        "own timings)",
                        Contestants.front().Path);
  }
  return llvm::Error::success();
}

} // namespace mlgo
