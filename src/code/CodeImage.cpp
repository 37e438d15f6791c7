/// \file
/// Loading a CodeImage from a linked ELF binary, and looking up its code.
#include "CodeImage.h"
#include "CodeImageBuilder.h"
#include "support/DirectoryWalk.h"
#include "support/Error.h"
#include "support/InputFile.h"

#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>

namespace mlgo {

llvm::Expected<CodeImage> CodeImage::loadBinary(llvm::StringRef Path) {
  auto Buffer = readRegularFile(Path);
  if (!Buffer)
    return Buffer.takeError();
  std::shared_ptr<llvm::MemoryBuffer> File = std::move(*Buffer);
  auto Object = llvm::object::ObjectFile::createObjectFile(File->getMemBufferRef());
  if (!Object)
    return inputError(Path, "not a readable object file: {}",
                      llvm::toString(Object.takeError()));
  auto *Elf = llvm::dyn_cast<llvm::object::ELFObjectFileBase>(Object->get());
  if (!Elf || Elf->isRelocatableObject())
    return inputError(Path, "not a linked ELF binary");

  auto Maps = Elf->readBBAddrMap();
  if (!Maps)
    return inputError(Path, "cannot read its BB address map: {}",
                      llvm::toString(Maps.takeError()));
  if (Maps->empty())
    return inputError(Path, "has no BB address map (build it with "
                            "-fbasic-block-address-map)");

  auto Dis = Disassembler::create(Elf->makeTriple());
  if (!Dis)
    return Dis.takeError();
  CodeImage Image;
  Image.Path = Path.str();
  Image.Identity = readIdentity(*Elf, File->getBuffer());
  Image.Triple = Elf->makeTriple().str();
  CodeImageBuilder Builder(Image, **Dis);
  Builder.keep(File);
  for (const llvm::object::SectionRef &Section : Elf->sections())
    if (Section.isText())
      if (auto Contents = Section.getContents())
        Builder.addText(Section.getAddress(), *Contents);
  if (llvm::Error E = Builder.addFunctions(std::move(*Maps),
                                           readFunctionSymbols(*Elf, nullptr)))
    return E;
  Builder.finish();
  return Image;
}

llvm::Expected<CodeImage> CodeImage::load(llvm::StringRef Path,
                                          const llvm::StringSet<> *LinkedGlobals) {
  if (!llvm::sys::fs::is_directory(Path))
    return loadBinary(Path);
  // Links to directories are not followed (a link to "." or ".." would walk without
  // end); an object reached by several names is loaded once.
  auto Objects = listFilesBelow(Path, [](llvm::StringRef F) { return F.ends_with(".o"); });
  if (!Objects)
    return Objects.takeError();
  if (Objects->empty())
    return inputError(Path, "holds no object files (*.o)");
  return loadObjects(*Objects, Path, LinkedGlobals);
}

std::optional<uint32_t> CodeImage::findFunction(llvm::StringRef Key) const {
  auto It = FunctionsByKey.find(Key);
  if (It == FunctionsByKey.end())
    return std::nullopt;
  return It->second;
}

llvm::ArrayRef<uint8_t> CodeImage::code(uint64_t Address, uint64_t Size) const {
  auto It = std::upper_bound(Texts.begin(), Texts.end(), Address,
                             [](uint64_t A, const TextRange &T) { return A < T.Address; });
  if (It == Texts.begin())
    return {};
  --It;
  if (Address + Size > It->Address + It->Bytes.size())
    return {};
  return llvm::arrayRefFromStringRef(It->Bytes.substr(Address - It->Address, Size));
}

llvm::ArrayRef<uint8_t> CodeImage::paddingAfter(uint32_t Segment) const {
  const CodeSegment &S = Segments[Segment];
  uint64_t End = S.Address + S.Size;
  auto Next = std::lower_bound(SegmentsByAddress.begin(), SegmentsByAddress.end(), End,
                               [&](uint32_t I, uint64_t A) { return Segments[I].Address < A; });
  if (Next != SegmentsByAddress.end() && *Next == Segment)
    ++Next; // S itself is empty
  if (Next == SegmentsByAddress.end())
    return {};
  const CodeSegment &N = Segments[*Next];
  if (Blocks[N.Block].Function != Blocks[S.Block].Function)
    return {};
  return code(End, N.Address - End);
}

std::optional<uint32_t> CodeImage::findSegmentAtOrBefore(uint64_t Address) const {
  auto It = std::upper_bound(SegmentsByAddress.begin(), SegmentsByAddress.end(), Address,
                             [&](uint64_t A, uint32_t S) { return A < Segments[S].Address; });
  if (It == SegmentsByAddress.begin())
    return std::nullopt;
  uint32_t Segment = *std::prev(It);
  // Only within the extent of the function range that holds the segment.
  auto Range = std::upper_bound(Ranges.begin(), Ranges.end(), Address,
                                [](uint64_t A, const FunctionRange &R) { return A < R.Begin; });
  if (Range == Ranges.begin())
    return std::nullopt;
  --Range;
  const CodeBlock &Block = Blocks[Segments[Segment].Block];
  if (Address >= Range->End || Range->Function != Block.Function)
    return std::nullopt;
  return Segment;
}

std::optional<uint32_t> CodeImage::findSegment(uint64_t Address) const {
  auto Segment = findSegmentAtOrBefore(Address);
  if (!Segment)
    return std::nullopt;
  const CodeSegment &S = Segments[*Segment];
  if (Address >= S.Address + S.Size)
    return std::nullopt;
  return Segment;
}

uint64_t CodeImage::totalInstructions() const {
  uint64_t Total = 0;
  for (const CodeSegment &S : Segments)
    Total += S.NumInstructions;
  return Total;
}

} // namespace mlgo
