/// \file
/// CodeLengthCheck: decodes the binary's code at each instruction of a new superblock.
#include "CodeLengthCheck.h"
#include "support/Error.h"

#include "llvm/ADT/StringExtras.h"

namespace mlgo {

llvm::Expected<std::unique_ptr<CodeLengthCheck>>
CodeLengthCheck::create(llvm::StringRef Binary, llvm::StringRef Input,
                        CollectorStreamListener &Next) {
  std::unique_ptr<CodeLengthCheck> C(new CodeLengthCheck(Next));
  C->Binary = Binary.str();
  C->Input = Input.str();
  auto Object = llvm::object::ObjectFile::createObjectFile(Binary);
  if (!Object)
    return inputError(Binary, "not a readable object file: {}",
                      llvm::toString(Object.takeError()));
  C->Object = std::move(*Object);
  auto Dis = Disassembler::create(C->Object.getBinary()->makeTriple());
  if (!Dis)
    return Dis.takeError();
  C->Dis = std::move(*Dis);
  for (const llvm::object::SectionRef &Section : C->Object.getBinary()->sections())
    if (Section.isText())
      if (auto Bytes = Section.getContents())
        C->Sections.push_back({Section.getAddress(), *Bytes});
  return C;
}

llvm::Error CodeLengthCheck::onModule(const CollectorModule &M) {
  if (M.IsMainExecutable) {
    BinaryModule = M.Id;
    Bias = M.LoadBias;
  }
  return Next.onModule(M);
}

std::optional<uint32_t> CodeLengthCheck::decodedLength(uint64_t Address) const {
  for (const Code &C : Sections)
    if (Address >= C.Address && Address < C.Address + C.Bytes.size()) {
      auto Inst = Dis->decode(
          llvm::arrayRefFromStringRef(C.Bytes.drop_front(Address - C.Address)), Address);
      return Inst ? Inst->Size : 0;
    }
  return std::nullopt;
}

bool CodeLengthCheck::isClientRequest(uint64_t Address, uint32_t Length) const {
  // Valgrind's amd64 preamble: rolq $3, $13, $61, $51 of %rdi, then a 3-byte xchg.
  static const char Preamble[] = "\x48\xc1\xc7\x03\x48\xc1\xc7\x0d"
                                 "\x48\xc1\xc7\x3d\x48\xc1\xc7\x33";
  for (const Code &C : Sections)
    if (Address >= C.Address && Address < C.Address + C.Bytes.size())
      return Length == 19 &&
             C.Bytes.drop_front(Address - C.Address).starts_with({Preamble, 16});
  return false;
}

llvm::Error CodeLengthCheck::onSuperblock(const CollectorSuperblock &S, uint32_t Index) {
  if (!BinaryModule || S.ModuleId != BinaryModule)
    return Next.onSuperblock(S, Index);
  uint64_t Address = S.Address - Bias;
  for (uint8_t Length : S.InstrLengths) {
    std::optional<uint32_t> Decoded = decodedLength(Address);
    if (Decoded && *Decoded != Length && !isClientRequest(Address, Length))
      return inputError(Input,
                        "the instruction at {:#x} is {} bytes long, but {} has {} there: "
                        "the trace is of another program or another build",
                        Address + Bias, Length, Binary,
                        *Decoded ? fmt::format("a {}-byte one", *Decoded)
                                 : std::string("no valid instruction"));
    Address += Length;
  }
  return Next.onSuperblock(S, Index);
}

} // namespace mlgo
