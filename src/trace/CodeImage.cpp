/// \file
/// Building a CodeImage from a linked ELF binary: BB address map, symbols, and a
/// disassembly pass that cuts blocks into segments.
#include "CodeImage.h"
#include "Disassembler.h"
#include "support/Error.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"
#include <algorithm>
#include <fmt/format.h>

namespace mlgo {

namespace {

struct FunctionSymbol {
  std::string Name;
  std::string File; ///< empty for global symbols
};

/// Function symbols by address; for a local symbol, the STT_FILE symbol before it.
/// When several symbols share an address, a global one wins (aliases of a local).
llvm::DenseMap<uint64_t, FunctionSymbol>
readFunctionSymbols(const llvm::object::ELFObjectFileBase &Obj) {
  llvm::DenseMap<uint64_t, FunctionSymbol> Symbols;
  std::string File;
  for (const llvm::object::ELFSymbolRef &Sym : Obj.symbols()) {
    auto Name = Sym.getName();
    if (!Name)
      continue;
    if (Sym.getELFType() == llvm::ELF::STT_FILE) {
      File = Name->str();
      continue;
    }
    if (Sym.getELFType() != llvm::ELF::STT_FUNC || Name->empty())
      continue;
    auto Address = Sym.getAddress();
    if (!Address)
      continue;
    bool Local = Sym.getBinding() == llvm::ELF::STB_LOCAL;
    auto [It, Inserted] =
        Symbols.try_emplace(*Address, FunctionSymbol{Name->str(), Local ? File : ""});
    if (!Inserted && !It->second.File.empty() && !Local)
      It->second = FunctionSymbol{Name->str(), ""};
  }
  return Symbols;
}

std::string readIdentity(const llvm::object::ObjectFile &Obj, llvm::StringRef FileBytes) {
  for (const llvm::object::SectionRef &Section : Obj.sections()) {
    auto Name = Section.getName();
    auto Contents = Section.getContents();
    if (!Name || *Name != ".note.gnu.build-id" || !Contents || Contents->size() < 16)
      continue;
    // Note layout: namesz, descsz, type (4 bytes each), name padded to 4, then desc.
    llvm::StringRef Note = *Contents;
    uint32_t NameSize = llvm::support::endian::read32le(Note.data());
    uint32_t DescSize = llvm::support::endian::read32le(Note.data() + 4);
    size_t DescOffset = 12 + llvm::alignTo(NameSize, 4);
    if (DescOffset + DescSize > Note.size())
      break;
    std::string Hex;
    for (unsigned char C : Note.substr(DescOffset, DescSize))
      Hex += fmt::format("{:02x}", C);
    return "build-id:" + Hex;
  }
  return fmt::format("xxh3:{:016x}", llvm::xxh3_64bits(FileBytes));
}

struct TextSection {
  uint64_t Address;
  llvm::StringRef Bytes;
};

} // namespace

/// Fills a CodeImage; a class so that it may touch CodeImage's private members.
class CodeImageBuilder {
public:
  CodeImageBuilder(CodeImage &Image, const Disassembler &Dis,
                   std::vector<TextSection> Texts)
      : Image(Image), Dis(Dis), Texts(std::move(Texts)) {}

  llvm::Error addFunction(const llvm::object::BBAddrMap &Map, const FunctionSymbol &Sym) {
    uint32_t FunctionIndex = Image.Functions.size();
    Image.Functions.push_back({Sym.Name, Sym.File, Map.getFunctionAddress(),
                               static_cast<uint32_t>(Image.Blocks.size()), 0});
    for (const auto &Range : Map.getBBRanges()) {
      uint64_t RangeEnd = Range.BaseAddress;
      for (const auto &Entry : Range.BBEntries) {
        uint64_t Address = Range.BaseAddress + Entry.Offset;
        if (llvm::Error E = addBlock(FunctionIndex, Entry.ID, Address, Entry.Size))
          return E;
        RangeEnd = std::max(RangeEnd, Address + Entry.Size);
      }
      Image.Ranges.push_back({Range.BaseAddress, RangeEnd, FunctionIndex});
    }
    Image.Functions.back().NumBlocks =
        Image.Blocks.size() - Image.Functions.back().FirstBlock;
    return llvm::Error::success();
  }

  void finish() {
    auto &Order = Image.SegmentsByAddress;
    Order.resize(Image.Segments.size());
    for (uint32_t I = 0; I < Order.size(); ++I)
      Order[I] = I;
    std::sort(Order.begin(), Order.end(), [&](uint32_t A, uint32_t B) {
      return Image.Segments[A].Address < Image.Segments[B].Address;
    });
    std::sort(Image.Ranges.begin(), Image.Ranges.end(),
              [](const auto &A, const auto &B) { return A.Begin < B.Begin; });
  }

private:
  std::optional<llvm::ArrayRef<uint8_t>> bytesAt(uint64_t Address, uint32_t Size) const {
    for (const TextSection &T : Texts)
      if (Address >= T.Address && Address + Size <= T.Address + T.Bytes.size())
        return llvm::arrayRefFromStringRef(T.Bytes.substr(Address - T.Address, Size));
    return std::nullopt;
  }

  llvm::Error addBlock(uint32_t FunctionIndex, uint32_t ID, uint64_t Address,
                       uint32_t Size) {
    const CodeFunction &F = Image.Functions[FunctionIndex];
    auto Bytes = bytesAt(Address, Size);
    if (!Bytes)
      return inputError(Image.Path, "block {} of {} at {:#x} lies outside the code",
                        ID, F.key(), Address);
    uint32_t BlockIndex = Image.Blocks.size();
    Image.Blocks.push_back({ID, Address, Size, static_cast<uint32_t>(Image.Segments.size()),
                            0, FunctionIndex});
    uint64_t SegmentStart = Address;
    uint32_t Count = 0;
    for (uint32_t Offset = 0; Offset < Size;) {
      auto Inst = Dis.decode(Bytes->drop_front(Offset), Address + Offset);
      if (!Inst)
        return inputError(Image.Path, "cannot decode the instruction at {:#x} in block {} "
                                      "of {}", Address + Offset, ID, F.key());
      Offset += Inst->Size;
      ++Count;
      if (Inst->EndsSegment || Offset >= Size) {
        Image.Segments.push_back({SegmentStart,
                                  static_cast<uint32_t>(Address + Offset - SegmentStart),
                                  Count, BlockIndex});
        SegmentStart = Address + Offset;
        Count = 0;
      }
    }
    if (Size == 0) // an empty block (e.g. an unreachable landing pad) keeps one segment
      Image.Segments.push_back({Address, 0, 0, BlockIndex});
    Image.Blocks.back().NumSegments = Image.Segments.size() - Image.Blocks.back().FirstSegment;
    return llvm::Error::success();
  }

  CodeImage &Image;
  const Disassembler &Dis;
  std::vector<TextSection> Texts;
};

llvm::Expected<CodeImage> CodeImage::loadBinary(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return inputError(Path, "cannot read: {}", Buffer.getError().message());
  auto Object = llvm::object::ObjectFile::createObjectFile((*Buffer)->getMemBufferRef());
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
  std::vector<TextSection> Texts;
  for (const llvm::object::SectionRef &Section : Elf->sections())
    if (Section.isText())
      if (auto Contents = Section.getContents())
        Texts.push_back({Section.getAddress(), *Contents});

  CodeImage Image;
  Image.Path = Path.str();
  Image.Identity = readIdentity(*Elf, (*Buffer)->getBuffer());
  llvm::DenseMap<uint64_t, FunctionSymbol> Symbols = readFunctionSymbols(*Elf);
  std::sort(Maps->begin(), Maps->end(), [](const auto &A, const auto &B) {
    return A.getFunctionAddress() < B.getFunctionAddress();
  });
  CodeImageBuilder Builder(Image, **Dis, std::move(Texts));
  for (const llvm::object::BBAddrMap &Map : *Maps) {
    auto It = Symbols.find(Map.getFunctionAddress());
    FunctionSymbol Sym = It != Symbols.end()
                             ? It->second
                             : FunctionSymbol{fmt::format("{:#x}", Map.getFunctionAddress()),
                                              ""};
    if (llvm::Error E = Builder.addFunction(Map, Sym))
      return E;
  }
  Builder.finish();
  return Image;
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
