/// \file
/// Turns a plain list of executed instructions (thread, address, length), as other
/// tracers write them, into the collector's superblocks and runs, so that the segment
/// builder maps them exactly as it maps a recording of our own Valgrind tool.
#pragma once

#include "CollectorStream.h"

#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace mlgo {

class RunSynthesizer {
public:
  /// Superblocks are cut at this many instructions, as Valgrind's are; the segment
  /// builder joins consecutive runs, so the cut never shows in the segment trace.
  static constexpr uint32_t MaxRunInstructions = 255;

  explicit RunSynthesizer(CollectorStreamListener &Listener) : Listener(Listener) {}

  /// Code in [Begin, End) belongs to collector module \p Module; code outside every
  /// range belongs to module 0 (none). Call before the first instruction.
  void addModuleRange(uint64_t Begin, uint64_t End, uint32_t Module);

  /// One executed instruction. A run continues while the thread, the module and the
  /// address (the previous one plus its length) continue; \p Length is 1..255.
  llvm::Error addInstruction(uint32_t ThreadId, uint64_t Address, uint32_t Length);

  /// Hands the current run to the listener (at the end of a thread's input).
  llvm::Error flush();

  uint64_t instructions() const { return Instructions; }
  size_t superblocks() const { return Superblocks.size(); }
  /// How many distinct threads ran instructions.
  size_t threads() const { return Threads.size(); }

private:
  struct ModuleRange {
    uint64_t Begin, End;
    uint32_t Module;
  };
  /// Finds the module of \p Address and the range (or gap) around it that shares it.
  void locate(uint64_t Address);

  CollectorStreamListener &Listener;
  std::vector<ModuleRange> Ranges; ///< sorted by Begin, disjoint
  bool RangesSorted = true;
  /// The module of [PlaceBegin, PlaceEnd), the place of the last address looked up.
  uint64_t PlaceBegin = 1, PlaceEnd = 0;
  uint32_t PlaceModule = 0;

  // The run being built.
  bool Open = false;
  uint32_t ThreadId = 0;
  uint64_t Start = 0, Next = 0;
  uint32_t Module = 0;
  std::string Lengths;

  /// Superblock index by start address and instruction lengths (8 bytes + lengths).
  std::unordered_map<std::string, uint32_t> Superblocks;
  std::string Key;
  uint64_t Instructions = 0;
  std::set<uint32_t> Threads;
};

} // namespace mlgo
