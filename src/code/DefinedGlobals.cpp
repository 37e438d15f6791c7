#include "DefinedGlobals.h"
#include "CodeImageBuilder.h"
#include "support/Error.h"
#include "support/InputFile.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"

namespace mlgo {

void addDefinedGlobals(const llvm::object::ObjectFile &Object, llvm::StringSet<> &Names,
                       GlobalKinds Kinds) {
  bool Elf = llvm::isa<llvm::object::ELFObjectFileBase>(Object);
  for (const llvm::object::SymbolRef &Symbol : Object.symbols()) {
    auto Flags = Symbol.getFlags();
    auto Name = Symbol.getName();
    if (!Flags || !Name) {
      llvm::consumeError(Flags.takeError());
      llvm::consumeError(Name.takeError());
      continue;
    }
    if (Kinds == GlobalKinds::Addressed && Elf &&
        llvm::object::ELFSymbolRef(Symbol).getELFType() == llvm::ELF::STT_GNU_IFUNC)
      continue;
    if ((*Flags & llvm::object::SymbolRef::SF_Global) &&
        !(*Flags & llvm::object::SymbolRef::SF_Undefined) && !Name->empty())
      Names.insert(*Name);
  }
}

llvm::Expected<llvm::StringSet<>> readLinkedGlobals(llvm::StringRef Path,
                                                    llvm::StringRef Identity) {
  auto Buffer = readRegularFile(Path);
  if (!Buffer)
    return Buffer.takeError();
  auto Object = llvm::object::ObjectFile::createObjectFile((*Buffer)->getMemBufferRef());
  if (!Object)
    return inputError(Path, "not a readable object file: {}",
                      llvm::toString(Object.takeError()));
  if (readIdentity(**Object, (*Buffer)->getBuffer()) != Identity)
    return inputError(Path, "is not the binary of identity {}", Identity.str());
  llvm::StringSet<> Names;
  addDefinedGlobals(**Object, Names, GlobalKinds::Addressed);
  return Names;
}

} // namespace mlgo
