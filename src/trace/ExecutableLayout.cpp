/// \file
/// ExecutableLayout from the ELF header and program headers.
#include "ExecutableLayout.h"
#include "support/Error.h"
#include "support/InputFile.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

namespace mlgo {

llvm::Expected<ExecutableLayout> ExecutableLayout::load(llvm::StringRef Path) {
  auto Buffer = readRegularFile(Path);
  if (!Buffer)
    return Buffer.takeError();
  auto Elf = llvm::object::ELF64LEFile::create((*Buffer)->getBuffer());
  if (!Elf)
    return inputError(Path, "not a 64-bit little-endian ELF file: {}",
                      llvm::toString(Elf.takeError()));
  const auto &Header = Elf->getHeader();
  if (Header.e_type != llvm::ELF::ET_EXEC && Header.e_type != llvm::ELF::ET_DYN)
    return inputError(Path, "not a linked ELF binary");
  ExecutableLayout Layout;
  Layout.PositionIndependent = Header.e_type == llvm::ELF::ET_DYN;
  Layout.Entry = Header.e_entry;
  auto Segments = Elf->program_headers();
  if (!Segments)
    return inputError(Path, "cannot read its program headers: {}",
                      llvm::toString(Segments.takeError()));
  for (const auto &Segment : *Segments)
    if (Segment.p_type == llvm::ELF::PT_LOAD && (Segment.p_flags & llvm::ELF::PF_X))
      Layout.Executable.push_back({Segment.p_vaddr, Segment.p_vaddr + Segment.p_memsz});
  return Layout;
}

} // namespace mlgo
