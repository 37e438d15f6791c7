#include "LoadSites.h"
#include "code/Disassembler.h"
#include "support/Error.h"

namespace mlgo {

void LoadSites::add(uint64_t Address, LoadCounts Counts) {
  std::optional<uint32_t> Segment = Image.findSegment(Address);
  if (!Segment)
    return;
  LoadCounts &Site = Sites[*Segment][Address];
  Site.Executions += Counts.Executions;
  Site.Dependent += Counts.Dependent;
}

llvm::Expected<LoadDependences> LoadSites::dependences() const {
  LoadDependences Loads;
  if (Sites.empty())
    return Loads;
  auto Dis = Disassembler::create(llvm::Triple(Image.triple()));
  if (!Dis)
    return Dis.takeError();
  for (const auto &[Index, ByAddress] : Sites) {
    const CodeSegment &Segment = Image.segments()[Index];
    llvm::ArrayRef<uint8_t> Code = Image.code(Segment);
    SegmentLoads S{Index, {}};
    for (uint64_t Offset = 0; Offset < Code.size();) {
      llvm::MCInst Inst;
      std::optional<uint32_t> Size =
          (*Dis)->decode(Code.drop_front(Offset), Segment.Address + Offset, Inst);
      if (!Size)
        return stageError("{}: cannot decode the instruction at {:#x}", Image.path(),
                          Segment.Address + Offset);
      if ((*Dis)->isDataLoad(Inst)) {
        auto Site = ByAddress.find(Segment.Address + Offset);
        S.Loads.push_back(Site == ByAddress.end() ? LoadCounts() : Site->second);
      }
      Offset += *Size;
    }
    if (!S.Loads.empty())
      Loads.push_back(std::move(S));
  }
  return Loads;
}

} // namespace mlgo
