/// \file
/// Loading a CodeImage from relocatable objects: every text section is given its own
/// image addresses, as a link would, and its BB address map is read per section. GOT
/// loads of symbols the objects (or the program they are linked into) define are
/// relaxed as the linker relaxes them.
#include "CodeImage.h"
#include "CodeImageBuilder.h"
#include "DefinedGlobals.h"
#include "GotRelaxation.h"
#include "support/Error.h"
#include "support/InputFile.h"

#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"
#include <fmt/format.h>

namespace mlgo {

namespace {

/// Where the first text section goes; nonzero, so that address 0 is never code.
constexpr uint64_t FirstTextAddress = 0x1000;

struct ObjectFile {
  std::shared_ptr<llvm::MemoryBuffer> Buffer;
  std::unique_ptr<llvm::object::ObjectFile> Object;
  const llvm::object::ELFObjectFileBase *Elf;
};

llvm::Expected<ObjectFile> openObject(const std::string &Path) {
  auto Buffer = readRegularFile(Path);
  if (!Buffer)
    return Buffer.takeError();
  ObjectFile File{std::move(*Buffer), nullptr, nullptr};
  auto Object = llvm::object::ObjectFile::createObjectFile(File.Buffer->getMemBufferRef());
  if (!Object)
    return inputError(Path, "not a readable object file: {}",
                      llvm::toString(Object.takeError()));
  File.Object = std::move(*Object);
  File.Elf = llvm::dyn_cast<llvm::object::ELFObjectFileBase>(File.Object.get());
  if (!File.Elf || !File.Elf->isRelocatableObject())
    return inputError(Path, "not a relocatable ELF object");
  return File;
}

} // namespace

llvm::Expected<CodeImage> CodeImage::loadObjects(llvm::ArrayRef<std::string> Paths,
                                                 llvm::StringRef Name,
                                                 const llvm::StringSet<> *LinkedGlobals) {
  if (Paths.empty())
    return inputError(Name, "no object files");
  std::vector<ObjectFile> Files;
  uint64_t Hash = 0;
  for (const std::string &Path : Paths) {
    auto File = openObject(Path);
    if (!File)
      return File.takeError();
    Hash = llvm::xxh3_64bits(llvm::arrayRefFromStringRef(File->Buffer->getBuffer())) ^
           (Hash * 0x9e3779b97f4a7c15ULL);
    Files.push_back(std::move(*File));
  }

  llvm::Triple TT = Files.front().Elf->makeTriple();
  auto Dis = Disassembler::create(TT);
  if (!Dis)
    return Dis.takeError();
  CodeImage Image;
  Image.Path = Name.str();
  Image.Triple = TT.str();
  CodeImageBuilder Builder(Image, **Dis);

  // A subset of a program's objects may lack the modules that define what it loads
  // through the GOT (data-only ones, or any with no traced function): the linked
  // program's globals say what the link relaxed.
  llvm::StringSet<> Defined;
  for (const ObjectFile &File : Files)
    addDefinedGlobals(*File.Elf, Defined, GlobalKinds::Addressed);
  if (LinkedGlobals)
    for (const auto &Global : *LinkedGlobals)
      Defined.insert(Global.getKey());
  uint64_t Next = FirstTextAddress;
  for (size_t I = 0; I < Files.size(); ++I) {
    const std::string &Path = Paths[I];
    const llvm::object::ELFObjectFileBase &Elf = *Files[I].Elf;
    if (Elf.makeTriple() != TT)
      return inputError(Path, "is for {}, but {} is for {}", Elf.makeTriple().str(),
                        Paths.front(), TT.str());
    Builder.keep(Files[I].Buffer);
    Builder.setSource(Path);
    SectionAddresses SectionBases;
    std::vector<std::pair<unsigned, uint64_t>> TextSections; // in file order
    std::unordered_map<uint64_t, std::string> Relaxed = relaxGotLoads(Elf, Defined);
    for (const llvm::object::SectionRef &Section : Elf.sections()) {
      auto Contents = Section.getContents();
      if (!Section.isText() || !Contents || Contents->empty())
        continue;
      uint64_t Base = llvm::alignTo(Next, std::max<uint64_t>(Section.getAlignment().value(), 16));
      SectionBases[Section.getIndex()] = Base;
      TextSections.push_back({static_cast<unsigned>(Section.getIndex()), Base});
      if (auto It = Relaxed.find(Section.getIndex()); It != Relaxed.end()) {
        // The code replayed is the relaxed code: its identity, the cache's key, says so.
        Hash = llvm::xxh3_64bits(llvm::arrayRefFromStringRef(It->second)) ^
               (Hash * 0x9e3779b97f4a7c15ULL);
        std::shared_ptr<llvm::MemoryBuffer> Copy =
            llvm::MemoryBuffer::getMemBufferCopy(It->second, Path);
        Builder.keep(Copy);
        Builder.addText(Base, Copy->getBuffer());
      } else {
        Builder.addText(Base, *Contents);
      }
      Next = Base + Contents->size();
    }
    if (SectionBases.empty())
      continue; // no code (data only)
    FunctionSymbols Symbols = readFunctionSymbols(Elf, &SectionBases);
    size_t Mapped = 0;
    for (const auto &[Index, Base] : TextSections) {
      auto Maps = Elf.readBBAddrMap(Index);
      if (!Maps)
        return inputError(Path, "cannot read its BB address map: {}",
                          llvm::toString(Maps.takeError()));
      Mapped += Maps->size();
      if (llvm::Error E = Builder.addFunctions(std::move(*Maps), Symbols, Base))
        return E;
    }
    if (!Mapped)
      return inputError(Path, "has no BB address map (build it with "
                              "-fbasic-block-address-map)");
  }
  Image.Identity = fmt::format("objects:xxh3:{:016x}", Hash);
  Builder.finish();
  return Image;
}

} // namespace mlgo
