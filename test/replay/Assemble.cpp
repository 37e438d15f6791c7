/// \file
/// Assembling with the real clang-22 and decoding with replay's own disassembler.
#include "Assemble.h"
#include "TestSupport.h"
#include "code/Disassembler.h"

#include "llvm/TargetParser/Triple.h"

namespace mlgo::test {

std::map<std::string, std::vector<llvm::MCInst>> assemble(const std::string &Assembly) {
  std::string Dir = makeTempDir("assemble");
  writeFile(Dir + "/code.s", Assembly);
  CommandResult Built = runShell(std::string(ClangPath) + " -c code.s -o code.o", Dir);
  INFO(Built.Output);
  REQUIRE(Built.ExitCode == 0);
  auto Decoder = requireOk(Disassembler::create(llvm::Triple("x86_64-unknown-linux-gnu")));
  std::map<std::string, std::vector<llvm::MCInst>> Code;
  for (auto &[Name, Bytes] : readSections(Dir + "/code.o", ".text.")) {
    llvm::ArrayRef<uint8_t> Rest(reinterpret_cast<const uint8_t *>(Bytes.data()), Bytes.size());
    std::vector<llvm::MCInst> &Out = Code[Name.substr(6)];
    while (!Rest.empty()) {
      llvm::MCInst Inst;
      auto Size = Decoder->decode(Rest, 0, Inst);
      REQUIRE(Size);
      Out.push_back(Inst);
      Rest = Rest.drop_front(*Size);
    }
  }
  return Code;
}

} // namespace mlgo::test
