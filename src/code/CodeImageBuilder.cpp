/// \file
/// Filling a CodeImage: symbols, blocks from the BB address map, and a disassembly pass
/// that cuts blocks into segments.
#include "CodeImageBuilder.h"
#include "support/Error.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"
#include <algorithm>
#include <fmt/format.h>

namespace mlgo {

FunctionSymbols readFunctionSymbols(const llvm::object::ELFObjectFileBase &Obj,
                                    const SectionAddresses *SectionBases) {
  FunctionSymbols Symbols;
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
    if (SectionBases) {
      auto Section = Sym.getSection();
      if (!Section || *Section == Obj.section_end())
        continue;
      auto Base = SectionBases->find((*Section)->getIndex());
      if (Base == SectionBases->end())
        continue;
      *Address += Base->second;
    }
    bool Local = Sym.getBinding() == llvm::ELF::STB_LOCAL;
    bool Weak = Sym.getBinding() == llvm::ELF::STB_WEAK;
    auto [It, Inserted] =
        Symbols.try_emplace(*Address, FunctionSymbol{Name->str(), Local ? File : "", Weak, {}});
    if (Inserted || Local)
      continue;
    if (!It->second.File.empty()) // a global name for a local's code: the global wins
      It->second = FunctionSymbol{Name->str(), "", Weak, {}};
    else
      It->second.Aliases.push_back(Name->str());
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

void CodeImageBuilder::keep(std::shared_ptr<llvm::MemoryBuffer> Buffer) {
  Image.Buffers.push_back(std::move(Buffer));
}

void CodeImageBuilder::addText(uint64_t Address, llvm::StringRef Bytes) {
  // Kept sorted at once: blocks are looked up in it while they are added.
  auto &Texts = Image.Texts;
  auto At = std::upper_bound(Texts.begin(), Texts.end(), Address,
                             [](uint64_t A, const auto &T) { return A < T.Address; });
  Texts.insert(At, {Address, Bytes});
}

llvm::Error
CodeImageBuilder::addFunctions(std::vector<llvm::object::BBAddrMap> Maps,
                               const FunctionSymbols &Symbols,
                               uint64_t Bias) {
  std::sort(Maps.begin(), Maps.end(), [](const auto &A, const auto &B) {
    return A.getFunctionAddress() < B.getFunctionAddress();
  });
  for (const llvm::object::BBAddrMap &Map : Maps) {
    uint64_t Address = Map.getFunctionAddress() + Bias;
    auto It = Symbols.find(Address);
    FunctionSymbol Sym = It != Symbols.end()
                             ? It->second
                             : FunctionSymbol{fmt::format("{:#x}", Address), "", false, {}};
    if (llvm::Error E = addFunction(Map, Sym, Bias))
      return E;
  }
  return llvm::Error::success();
}

llvm::Error CodeImageBuilder::addFunction(const llvm::object::BBAddrMap &Map,
                                          const FunctionSymbol &Sym, uint64_t Bias) {
  std::string Key = CodeFunction{Sym.Name, Sym.File, 0, 0, 0}.key();
  auto [Seen, New] = Keys.try_emplace(Key, Source, Sym.Weak);
  if (!New) {
    const auto &[First, FirstWeak] = Seen->second;
    if (FirstWeak || Sym.Weak || First == Source)
      return llvm::Error::success();
    return inputError(Source, "defines {}, as {} does: which code to replay is ambiguous",
                      Key, First);
  }
  uint32_t FunctionIndex = Image.Functions.size();
  for (const std::string &Alias : Sym.Aliases)
    AliasKeys.emplace_back(CodeFunction{Alias, "", 0, 0, 0}.key(), FunctionIndex);
  Image.Functions.push_back({Sym.Name, Sym.File, Map.getFunctionAddress() + Bias,
                             static_cast<uint32_t>(Image.Blocks.size()), 0});
  for (const auto &Range : Map.getBBRanges()) {
    uint64_t Base = Range.BaseAddress + Bias;
    uint64_t RangeEnd = Base;
    for (const auto &Entry : Range.BBEntries) {
      uint64_t Address = Base + Entry.Offset;
      if (llvm::Error E = addBlock(FunctionIndex, Entry.ID, Address, Entry.Size))
        return E;
      RangeEnd = std::max(RangeEnd, Address + Entry.Size);
    }
    Image.Ranges.push_back({Base, RangeEnd, FunctionIndex});
  }
  Image.Functions.back().NumBlocks =
      Image.Blocks.size() - Image.Functions.back().FirstBlock;
  return llvm::Error::success();
}

llvm::Error CodeImageBuilder::addBlock(uint32_t FunctionIndex, uint32_t ID,
                                       uint64_t Address, uint32_t Size) {
  const CodeFunction &F = Image.Functions[FunctionIndex];
  llvm::ArrayRef<uint8_t> Bytes = Image.code(Address, Size);
  if (Size && Bytes.empty())
    return inputError(Image.Path, "block {} of {} at {:#x} lies outside the code", ID,
                      F.key(), Address);
  uint32_t BlockIndex = Image.Blocks.size();
  Image.Blocks.push_back({ID, Address, Size, static_cast<uint32_t>(Image.Segments.size()),
                          0, FunctionIndex});
  uint64_t SegmentStart = Address;
  uint32_t Count = 0;
  for (uint32_t Offset = 0; Offset < Size;) {
    auto Inst = Dis.decode(Bytes.drop_front(Offset), Address + Offset);
    if (!Inst)
      return inputError(Image.Path, "cannot decode the instruction at {:#x} in block {} "
                                    "of {}", Address + Offset, ID, F.key());
    Offset += Inst->Size;
    ++Count;
    if (Inst->EndsSegment || Offset >= Size) {
      SegmentEnd End = Inst->IsCall        ? SegmentEnd::Call
                       : Inst->EndsSegment ? SegmentEnd::Branch
                                           : SegmentEnd::BlockEnd;
      Image.Segments.push_back({SegmentStart,
                                static_cast<uint32_t>(Address + Offset - SegmentStart),
                                Count, BlockIndex, End});
      SegmentStart = Address + Offset;
      Count = 0;
    }
  }
  if (Size == 0) // an empty block (e.g. an unreachable landing pad) keeps one segment
    Image.Segments.push_back({Address, 0, 0, BlockIndex, SegmentEnd::BlockEnd});
  Image.Blocks.back().NumSegments = Image.Segments.size() - Image.Blocks.back().FirstSegment;
  return llvm::Error::success();
}

void CodeImageBuilder::finish() {
  auto &Order = Image.SegmentsByAddress;
  Order.resize(Image.Segments.size());
  for (uint32_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::sort(Order.begin(), Order.end(), [&](uint32_t A, uint32_t B) {
    return Image.Segments[A].Address < Image.Segments[B].Address;
  });
  std::sort(Image.Ranges.begin(), Image.Ranges.end(),
            [](const auto &A, const auto &B) { return A.Begin < B.Begin; });
  for (uint32_t F = 0; F < Image.Functions.size(); ++F)
    Image.FunctionsByKey.try_emplace(Image.Functions[F].key(), F);
  // An alias finds its code, unless a function of its own has the name.
  for (const auto &[Key, F] : AliasKeys)
    Image.FunctionsByKey.try_emplace(Key, F);
}

} // namespace mlgo
