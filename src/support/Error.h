/// \file
/// Errors shared by every stage. An InputError blames a file or an option value the
/// user gave (the CLI exits 2); any other llvm::Error is a failed stage (exit 1).
#pragma once

#include "llvm/Support/Error.h"
#include <fmt/format.h>
#include <string>

namespace mlgo {

/// A problem with the user's input, rendered as "<input>: <what is wrong>".
class InputError : public llvm::ErrorInfo<InputError> {
public:
  static char ID;
  InputError(std::string Input, std::string Message)
      : Input(std::move(Input)), Message(std::move(Message)) {}
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;
  const std::string &input() const { return Input; }
  const std::string &what() const { return Message; }

private:
  std::string Input;
  std::string Message;
};

template <typename... Args>
llvm::Error inputError(llvm::StringRef Input, fmt::format_string<Args...> Format,
                       Args &&...A) {
  return llvm::make_error<InputError>(
      Input.str(), fmt::format(Format, std::forward<Args>(A)...));
}

/// A failure that is not the input's fault (I/O, a child process), as "<what>: <why>".
template <typename... Args>
llvm::Error stageError(fmt::format_string<Args...> Format, Args &&...A) {
  return llvm::createStringError(std::errc::io_error, "%s",
                                 fmt::format(Format, std::forward<Args>(A)...).c_str());
}

/// Prefixes an error with the file it concerns, keeping its kind: an InputError stays
/// one; any other error becomes an InputError about \p Input.
llvm::Error withInput(llvm::StringRef Input, llvm::Error E);

} // namespace mlgo
