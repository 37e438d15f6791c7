/// \file
/// Shell-word splitting through LLVM's GNU command-line tokenizer.
#include "ShellWords.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/StringSaver.h"

namespace mlgo {

std::vector<std::string> splitShellWords(llvm::StringRef Text) {
  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver(Alloc);
  llvm::SmallVector<const char *, 64> Words;
  llvm::cl::TokenizeGNUCommandLine(Text, Saver, Words);
  return std::vector<std::string>(Words.begin(), Words.end());
}

std::string quoteShellWord(llvm::StringRef Word) {
  constexpr llvm::StringLiteral Safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                       "0123456789-_./=:,+@%";
  if (!Word.empty() && Word.find_first_not_of(Safe) == llvm::StringRef::npos)
    return Word.str();
  std::string Quoted = "'";
  for (char C : Word)
    Quoted += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Quoted + "'";
}

} // namespace mlgo
