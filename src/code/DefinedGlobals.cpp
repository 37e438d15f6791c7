#include "DefinedGlobals.h"

namespace mlgo {

void addDefinedGlobals(const llvm::object::ObjectFile &Object, llvm::StringSet<> &Names) {
  for (const llvm::object::SymbolRef &Symbol : Object.symbols()) {
    auto Flags = Symbol.getFlags();
    auto Name = Symbol.getName();
    if (!Flags || !Name) {
      llvm::consumeError(Flags.takeError());
      llvm::consumeError(Name.takeError());
      continue;
    }
    if ((*Flags & llvm::object::SymbolRef::SF_Global) &&
        !(*Flags & llvm::object::SymbolRef::SF_Undefined) && !Name->empty())
      Names.insert(*Name);
  }
}

} // namespace mlgo
