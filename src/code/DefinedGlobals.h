/// \file
/// The global symbols an object defines: what a link resolves within the program.
#pragma once

#include "llvm/ADT/StringSet.h"
#include "llvm/Object/ObjectFile.h"

namespace mlgo {

/// Adds the names of the global symbols \p Object defines to \p Names.
void addDefinedGlobals(const llvm::object::ObjectFile &Object, llvm::StringSet<> &Names);

} // namespace mlgo
