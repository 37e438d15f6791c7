/// \file
/// InputError and the helpers that attach a file name to an error.
#include "Error.h"

namespace mlgo {

char InputError::ID = 0;

void InputError::log(llvm::raw_ostream &OS) const {
  OS << Input << ": " << Message;
}

std::error_code InputError::convertToErrorCode() const {
  return std::make_error_code(std::errc::invalid_argument);
}

llvm::Error withInput(llvm::StringRef Input, llvm::Error E) {
  if (!E)
    return E;
  if (E.isA<InputError>())
    return E;
  return llvm::make_error<InputError>(Input.str(), llvm::toString(std::move(E)));
}

} // namespace mlgo
