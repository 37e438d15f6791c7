#include "LinkCommand.h"
#include "support/Error.h"
#include "support/ShellWords.h"

#include <algorithm>

namespace mlgo {

std::vector<std::string> LinkCommand::with(const std::vector<std::string> &NewObjects,
                                           const std::string &NewOutput) const {
  std::vector<std::string> Result;
  for (size_t I = 0; I < Words.size(); ++I) {
    if (!Objects.empty() && I == Objects.front())
      Result.insert(Result.end(), NewObjects.begin(), NewObjects.end());
    bool IsObject = std::find(Objects.begin(), Objects.end(), I) != Objects.end();
    if (!IsObject)
      Result.push_back(I == Output ? NewOutput : Words[I]);
  }
  return Result;
}

std::vector<std::string> LinkCommand::objects() const {
  std::vector<std::string> Result;
  for (size_t I : Objects)
    Result.push_back(Words[I]);
  return Result;
}

llvm::Expected<LinkCommand> parseLinkCommand(llvm::StringRef Text) {
  llvm::StringRef Command = Text.trim();
  Command.consume_front(": && ");
  Command.consume_back(" && :");
  LinkCommand Link;
  Link.Words = splitShellWords(Command);
  if (Link.Words.empty())
    return inputError("--link", "is empty");
  for (size_t I = 0; I < Link.Words.size(); ++I) {
    llvm::StringRef W = Link.Words[I];
    if (W == "&&" || W == "||" || W == ";" || W == "|" || W == "cd")
      return inputError("--link", "'{}': must be one compiler-driver invocation, not a "
                                  "shell script",
                        W.str());
    if (W == "-o" && I + 1 < Link.Words.size())
      Link.Output = ++I;
    else if (I > 0 && (W.ends_with(".o") || W.ends_with(".a")) && !W.starts_with("-"))
      Link.Objects.push_back(I);
  }
  if (Link.Objects.empty())
    return inputError("--link", "names no objects (*.o, *.a)");
  if (Link.Output == 0)
    return inputError("--link", "has no -o OUTPUT");
  return Link;
}

} // namespace mlgo
