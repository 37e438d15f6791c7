/// \file
/// Decoding segments, padding and chunks of unmapped code once each.
#include "detail/DecodedCode.h"
#include "support/Error.h"

#include "llvm/TargetParser/Triple.h"

namespace mlgo {

llvm::Expected<const DecodedCode *> DecodedCodeCache::get(const CodeImage &Image,
                                                          uint32_t Segment, Piece What) {
  PerImage &P = Images[&Image];
  if (!P.Dis) {
    auto Dis = Disassembler::create(llvm::Triple(Image.triple()));
    if (!Dis)
      return Dis.takeError();
    P.Dis = std::move(*Dis);
    for (auto &Slots : P.Pieces)
      Slots.resize(Image.segments().size());
  }
  std::unique_ptr<DecodedCode> &Slot = P.Pieces[static_cast<int>(What)][Segment];
  if (Slot)
    return Slot.get();
  const CodeSegment &S = Image.segments()[Segment];
  bool Padding = What == Piece::Padding;
  uint64_t Address = Padding ? S.Address + S.Size : S.Address;
  llvm::ArrayRef<uint8_t> Bytes = Padding ? Image.paddingAfter(Segment) : Image.code(S);
  if (What == Piece::SegmentAndNext) // the next segment of the block follows directly
    Bytes = Image.code(S.Address, S.Size + Image.segments()[Segment + 1].Size);
  auto Code = std::make_unique<DecodedCode>();
  Code->LineBase = Image.functions()[Image.blocks()[S.Block].Function].Address;
  for (uint32_t Offset = 0; Offset < Bytes.size();) {
    llvm::MCInst Inst;
    auto Size = P.Dis->decode(Bytes.drop_front(Offset), Address + Offset, Inst);
    if (!Size) {
      if (Padding)
        break; // not code after all: replay what decoded
      return inputError(Image.path(), "cannot decode the instruction at {:#x}",
                        Address + Offset);
    }
    Code->Instructions.push_back(Inst);
    Code->Addresses.push_back(Address + Offset);
    Code->Offsets.push_back(Offset);
    Code->Sizes.push_back(static_cast<uint8_t>(*Size));
    Offset += *Size;
  }
  Slot = std::move(Code);
  return Slot.get();
}

llvm::Expected<const DecodedCode *> DecodedCodeCache::chunk(const CodeChunk &Chunk,
                                                            llvm::StringRef Triple,
                                                            llvm::StringRef TracePath) {
  if (!ChunkDis) {
    auto Dis = Disassembler::create(llvm::Triple(Triple));
    if (!Dis)
      return Dis.takeError();
    ChunkDis = std::move(*Dis);
  }
  if (Chunks.size() <= Chunk.Id)
    Chunks.resize(Chunk.Id + 1);
  std::unique_ptr<DecodedCode> &Slot = Chunks[Chunk.Id];
  if (Slot)
    return Slot.get();
  auto Code = std::make_unique<DecodedCode>();
  uint32_t Offset = 0;
  for (uint8_t Length : Chunk.InstrLengths) {
    // LLVM may decode what the collector counted as one instruction as several: a lock
    // prefix and its instruction, or a client request (four rotates and an xchg). The
    // last one stands for it, so that replay runs as many instructions as were traced.
    llvm::ArrayRef<uint8_t> Bytes = llvm::ArrayRef(Chunk.Bytes).take_front(Offset + Length);
    llvm::MCInst Inst;
    for (uint32_t At = Offset; At < Offset + Length;) {
      auto Size = ChunkDis->decode(Bytes.drop_front(At), Chunk.Address + At, Inst);
      if (!Size)
        return inputError(TracePath, "cannot decode the unmapped instruction at {:#x} "
                                     "(code chunk {})",
                          Chunk.Address + At, Chunk.Id);
      At += *Size;
    }
    Code->Instructions.push_back(Inst);
    Code->Addresses.push_back(Chunk.Address + Offset);
    Code->Offsets.push_back(Offset);
    Code->Sizes.push_back(Length);
    Offset += Length;
  }
  Slot = std::move(Code);
  return Slot.get();
}

} // namespace mlgo
