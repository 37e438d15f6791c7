#include "GotRelaxation.h"

#include "llvm/BinaryFormat/ELF.h"

namespace mlgo {

namespace {

/// Whether the program defines the symbol \p Symbol of \p Object names, so that the
/// linker resolves it within the program (not an ifunc, whose address the GOT holds).
bool definedInProgram(const llvm::object::ELFSymbolRef &Symbol, const llvm::StringSet<> &Defined) {
  if (Symbol.getELFType() == llvm::ELF::STT_GNU_IFUNC)
    return false;
  auto Flags = Symbol.getFlags();
  if (!Flags) {
    llvm::consumeError(Flags.takeError());
    return false;
  }
  if (!(*Flags & llvm::object::SymbolRef::SF_Undefined))
    return true;
  auto Name = Symbol.getName();
  if (!Name) {
    llvm::consumeError(Name.takeError());
    return false;
  }
  return Defined.contains(*Name);
}

} // namespace

std::unordered_map<uint64_t, std::string>
relaxGotLoads(const llvm::object::ELFObjectFileBase &Object, const llvm::StringSet<> &Defined) {
  std::unordered_map<uint64_t, std::string> Relaxed;
  if (Object.getEMachine() != llvm::ELF::EM_X86_64)
    return Relaxed;
  for (const llvm::object::SectionRef &Relocations : Object.sections()) {
    auto Target = Relocations.getRelocatedSection();
    if (!Target) {
      llvm::consumeError(Target.takeError());
      continue;
    }
    if (*Target == Object.section_end() || !(*Target)->isText())
      continue;
    for (const llvm::object::RelocationRef &R : Relocations.relocations()) {
      if (R.getType() != llvm::ELF::R_X86_64_REX_GOTPCRELX)
        continue;
      llvm::object::symbol_iterator Symbol = R.getSymbol();
      if (Symbol == Object.symbol_end() ||
          !definedInProgram(llvm::object::ELFSymbolRef(*Symbol), Defined))
        continue;
      auto Contents = (*Target)->getContents();
      if (!Contents) {
        llvm::consumeError(Contents.takeError());
        break;
      }
      // REX, opcode, ModRM, then the displacement the relocation patches: a load
      // (8b) with a RIP-relative operand (ModRM mod 00, r/m 101) becomes a lea (8d).
      uint64_t At = R.getOffset();
      if (At < 3 || At + 4 > Contents->size())
        continue;
      auto Opcode = static_cast<uint8_t>((*Contents)[At - 2]);
      auto ModRM = static_cast<uint8_t>((*Contents)[At - 1]);
      if (Opcode != 0x8b || (ModRM & 0xc7) != 0x05)
        continue;
      // The section is copied once, at its first relaxed load.
      uint64_t Index = (*Target)->getIndex();
      auto It = Relaxed.find(Index);
      if (It == Relaxed.end())
        It = Relaxed.emplace(Index, Contents->str()).first;
      It->second[At - 2] = static_cast<char>(0x8d);
    }
  }
  return Relaxed;
}

} // namespace mlgo
