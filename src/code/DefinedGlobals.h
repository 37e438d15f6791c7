/// \file
/// The global symbols an object or a linked program defines: what a link resolves
/// within the program.
#pragma once

#include "llvm/ADT/StringSet.h"
#include "llvm/Object/ObjectFile.h"

namespace mlgo {

/// Which defined globals count: all of them, or those whose address a link puts in
/// the code (not ifuncs: their addresses are chosen at run time, through the GOT).
enum class GlobalKinds { All, Addressed };

/// Adds the names of the global symbols \p Object defines to \p Names.
void addDefinedGlobals(const llvm::object::ObjectFile &Object, llvm::StringSet<> &Names,
                       GlobalKinds Kinds = GlobalKinds::All);

/// The addressed globals (GlobalKinds::Addressed) of the linked binary at \p Path, if
/// it is the one of identity \p Identity (CodeImage::identity()); an InputError if it
/// cannot be read or is another.
llvm::Expected<llvm::StringSet<>> readLinkedGlobals(llvm::StringRef Path,
                                                    llvm::StringRef Identity);

} // namespace mlgo
