/// \file
/// Reading and writing JSON files with nlohmann-json, exceptions turned into llvm::Error.
#include "Json.h"
#include "Error.h"
#include "OutputFile.h"

#include "llvm/Support/MemoryBuffer.h"

namespace mlgo {

llvm::Expected<Json> readJsonFile(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return inputError(Path, "cannot read: {}", Buffer.getError().message());
  try {
    return Json::parse((*Buffer)->getBuffer().begin(), (*Buffer)->getBuffer().end());
  } catch (const nlohmann::json::exception &E) {
    return inputError(Path, "invalid JSON: {}", E.what());
  }
}

std::string dumpJson(const Json &Value, int Indent) {
  return Value.dump(Indent, ' ', /*ensure_ascii=*/false,
                    nlohmann::json::error_handler_t::replace);
}

llvm::Error writeJsonFile(llvm::StringRef Path, const Json &Value) {
  std::string Text = dumpJson(Value) + "\n";
  return writeFileAtomically(Path, Text);
}

} // namespace mlgo
