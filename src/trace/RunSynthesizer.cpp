/// \file
/// RunSynthesizer: cuts the instruction list at every discontinuity and defines one
/// superblock per distinct straight-line run, reused whenever the run repeats.
#include "RunSynthesizer.h"

#include <algorithm>
#include <cassert>

namespace mlgo {

void RunSynthesizer::addModuleRange(uint64_t Begin, uint64_t End, uint32_t Module) {
  assert(Instructions == 0 && "module ranges must come before the instructions");
  if (Begin < End)
    Ranges.push_back({Begin, End, Module});
  RangesSorted = false;
}

void RunSynthesizer::locate(uint64_t Address) {
  if (!RangesSorted) {
    std::sort(Ranges.begin(), Ranges.end(),
              [](const ModuleRange &A, const ModuleRange &B) { return A.Begin < B.Begin; });
    RangesSorted = true;
  }
  auto After = std::upper_bound(Ranges.begin(), Ranges.end(), Address,
                                [](uint64_t A, const ModuleRange &R) { return A < R.Begin; });
  PlaceEnd = After == Ranges.end() ? UINT64_MAX : After->Begin;
  if (After != Ranges.begin() && Address < std::prev(After)->End) {
    const ModuleRange &R = *std::prev(After);
    PlaceBegin = R.Begin;
    PlaceEnd = R.End;
    PlaceModule = R.Module;
    return;
  }
  // A gap between ranges: no module.
  PlaceBegin = After == Ranges.begin() ? 0 : std::prev(After)->End;
  PlaceModule = 0;
}

llvm::Error RunSynthesizer::addInstruction(uint32_t Thread, uint64_t Address,
                                           uint32_t Length) {
  assert(Length >= 1 && Length <= 255 && "instruction lengths are 1..255 bytes");
  bool SamePlace = Address >= PlaceBegin && Address < PlaceEnd;
  if (!SamePlace)
    locate(Address);
  if (Open && (Thread != ThreadId || Address != Next || !SamePlace ||
               Lengths.size() == MaxRunInstructions))
    if (llvm::Error E = flush())
      return E;
  if (!Open) {
    if (Thread != ThreadId || Instructions == 0)
      Threads.insert(Thread);
    Open = true;
    ThreadId = Thread;
    Start = Address;
    Module = PlaceModule;
  }
  Lengths.push_back(static_cast<char>(Length));
  Next = Address + Length;
  ++Instructions;
  return llvm::Error::success();
}

llvm::Error RunSynthesizer::flush() {
  if (!Open)
    return llvm::Error::success();
  Open = false;
  Key.assign(reinterpret_cast<const char *>(&Start), sizeof(Start));
  Key += Lengths;
  auto [It, Inserted] = Superblocks.try_emplace(Key, Superblocks.size());
  uint32_t Count = Lengths.size();
  if (Inserted) {
    CollectorSuperblock S;
    S.Address = Start;
    S.ModuleId = Module;
    S.InstrLengths.assign(Lengths.begin(), Lengths.end());
    S.ExitInstrCounts = {static_cast<uint8_t>(Count)};
    S.FirstExitId = It->second; // one exit per synthesized superblock
    if (llvm::Error E = Listener.onSuperblock(S, It->second))
      return E;
  }
  Lengths.clear();
  return Listener.onRun({ThreadId, Start, Count, It->second, /*ExitId=*/It->second});
}

} // namespace mlgo
