/// \file
/// Embedded-bitcode sections of ELF, COFF (.llvmbc, .llvmcmd) and Mach-O
/// (__LLVM,__bitcode and __LLVM,__cmdline) objects.
#include "EmbeddedSections.h"
#include "support/Error.h"
#include "support/InputFile.h"

#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Object/ObjectFile.h"

namespace mlgo {

llvm::Expected<EmbeddedModule> readEmbeddedModule(llvm::StringRef Path) {
  auto Buffer = readRegularFile(Path);
  if (!Buffer)
    return Buffer.takeError();
  EmbeddedModule Module;
  Module.File = std::move(*Buffer);
  llvm::file_magic Magic = llvm::identify_magic(Module.File->getBuffer());
  if (Magic == llvm::file_magic::bitcode) {
    Module.IsBitcodeFile = true;
    return Module;
  }
  auto Object = llvm::object::ObjectFile::createObjectFile(Module.File->getMemBufferRef(),
                                                           Magic);
  if (!Object)
    return inputError(Path, "not a readable object file: {}",
                      llvm::toString(Object.takeError()));
  for (const llvm::object::SectionRef &Section : (*Object)->sections()) {
    auto Name = Section.getName();
    if (!Name)
      return inputError(Path, "corrupt section table: {}", llvm::toString(Name.takeError()));
    bool IsBitcode = *Name == ".llvmbc" || *Name == "__bitcode";
    bool IsCommand = *Name == ".llvmcmd" || *Name == "__cmdline";
    if (!IsBitcode && !IsCommand)
      continue;
    auto Contents = Section.getContents();
    if (!Contents)
      return inputError(Path, "cannot read section {}: {}", Name->str(),
                        llvm::toString(Contents.takeError()));
    (IsBitcode ? Module.Bitcode : Module.Command) = *Contents;
  }
  return Module;
}

} // namespace mlgo
