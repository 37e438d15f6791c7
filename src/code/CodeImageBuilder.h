/// \file
/// Filling a CodeImage from an ELF file's BB address maps, function symbols and code.
/// Shared by the loader of linked binaries (CodeImage.cpp) and the loader of
/// relocatable objects (CodeImageObjects.cpp).
#pragma once

#include "CodeImage.h"
#include "Disassembler.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Object/ELFObjectFile.h"
#include <unordered_map>

namespace mlgo {

struct FunctionSymbol {
  std::string Name;
  std::string File; ///< empty for global symbols
  bool Weak = false; ///< a weak definition (an inline function's copy)
  /// The other global names of the same code (C++'s constructor and destructor aliases:
  /// D1 and D2 at one address). Which of them Name is depends on the file's symbol
  /// order, which a binary and its objects need not share.
  std::vector<std::string> Aliases;
};

/// Function symbols by image address; a local symbol takes the name of the STT_FILE
/// symbol before it. When several symbols share an address, a global one wins (aliases
/// of a local), and the other global ones are its aliases. In a relocatable object
/// symbol values are section offsets: \p SectionBases gives the image address of each
/// text section there (null for a linked binary, whose symbol values are addresses).
/// Addresses come from the file and may be any value: no llvm::DenseMap, which reserves
/// two keys (~0 and ~0 - 1) for itself.
using FunctionSymbols = std::unordered_map<uint64_t, FunctionSymbol>;
using SectionAddresses = std::unordered_map<uint64_t, uint64_t>;
FunctionSymbols readFunctionSymbols(const llvm::object::ELFObjectFileBase &Obj,
                                    const SectionAddresses *SectionBases);

/// The identity of a linked binary: its GNU build ID, else a hash of its bytes.
std::string readIdentity(const llvm::object::ObjectFile &Obj, llvm::StringRef FileBytes);

/// Fills a CodeImage; a class so that it may touch CodeImage's private members.
class CodeImageBuilder {
public:
  CodeImageBuilder(CodeImage &Image, const Disassembler &Dis) : Image(Image), Dis(Dis) {}

  /// Keeps \p Buffer alive as long as the image, for the code that points into it.
  void keep(std::shared_ptr<llvm::MemoryBuffer> Buffer);
  /// \p Bytes (inside a kept buffer) are the code at image address \p Address.
  void addText(uint64_t Address, llvm::StringRef Bytes);
  /// The file the next functions come from (relocatable objects), for errors.
  void setSource(std::string Path) { Source = std::move(Path); }
  /// Adds the functions of \p Maps, whose addresses are \p Bias below image addresses,
  /// in address order. A function whose key is already in the image is skipped if either
  /// copy is weak (objects may each hold a copy of an inline function, of which a link
  /// keeps one) or both come from one file; two files that both define it otherwise
  /// are an error naming both: which code to replay would be a guess.
  llvm::Error addFunctions(std::vector<llvm::object::BBAddrMap> Maps,
                           const FunctionSymbols &Symbols,
                           uint64_t Bias = 0);
  /// Builds the lookup tables; call once after the last addFunctions.
  void finish();

private:
  llvm::Error addFunction(const llvm::object::BBAddrMap &Map, const FunctionSymbol &Sym,
                          uint64_t Bias);
  llvm::Error addBlock(uint32_t FunctionIndex, uint32_t ID, uint64_t Address,
                       uint32_t Size);

  CodeImage &Image;
  const Disassembler &Dis;
  std::string Source;
  /// Per function key, where it came from.
  llvm::StringMap<std::pair<std::string, bool>> Keys; ///< source, weak
  /// The keys of the functions' aliases, and their function's index.
  std::vector<std::pair<std::string, uint32_t>> AliasKeys;
};

} // namespace mlgo
