/// \file
/// The linker's relaxation of GOT loads, applied to objects' code. Code compiled to be
/// position independent loads a global's address from the GOT (`mov reg, [rip +
/// sym@GOTPCREL]`, relocation R_X86_64_REX_GOTPCRELX); where the program itself defines
/// the symbol, lld and ld.bfd rewrite the load into `lea reg, [rip + sym]`, the same
/// length. Replay of compiled objects without it charged a load on the path of every
/// such access that the linked program computes (python3.11's code: 3.4% of its
/// predicted cycles).
#pragma once

#include "llvm/ADT/StringSet.h"
#include "llvm/Object/ELFObjectFile.h"
#include <string>
#include <unordered_map>

namespace mlgo {

/// Per text section of \p Object (by section index), its contents with every GOT load
/// of a symbol the program defines (in \p Object, or globally in \p Defined) relaxed
/// as the linker does; only sections with such a load.
std::unordered_map<uint64_t, std::string>
relaxGotLoads(const llvm::object::ELFObjectFileBase &Object, const llvm::StringSet<> &Defined);

} // namespace mlgo
