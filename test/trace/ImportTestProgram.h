/// \file
/// What the import tests share: a real clang-22 binary, an execution made up from its
/// own code (so that every segment event of the import is known in advance), and the
/// events of a .bbtrace read back.
#pragma once

#include "ExecutableLayout.h"
#include "SegmentBuilder.h"
#include "code/CodeImage.h"
#include "code/Disassembler.h"

#include "llvm/Object/ObjectFile.h"
#include <string>
#include <tuple>
#include <vector>

namespace mlgo::test {

/// One event as read back: thread, kind, index, offset, instructions.
using Event = std::tuple<uint32_t, SegmentEvent::Kind, uint32_t, uint32_t, uint64_t>;

/// One executed instruction: at a link-time address of the binary, or (Library) at an
/// address of code outside it.
struct Step {
  uint64_t Address;
  uint32_t Length;
  bool Library = false;
};

/// A made-up execution of one thread and the events its import must give, for module
/// ids BinaryModule (the binary's code outside blocks) and LibraryModule.
struct Plan {
  uint32_t Thread;
  uint32_t BinaryModule, LibraryModule;
  std::vector<Step> Steps;
  std::vector<Event> Expected;
};

class TestProgram {
public:
  /// Builds a small C program with -O2 -fbasic-block-address-map and \p ExtraFlags.
  static TestProgram build(const std::string &Dir, const std::string &ExtraFlags = "");

  const std::string &path() const { return Path; }
  const CodeImage &image() const { return *Image; }
  const ExecutableLayout &layout() const { return Layout; }

  /// Runs every segment of \p Function in layout order.
  void runFunction(Plan &P, llvm::StringRef Function) const;
  /// Runs the first \p Count instructions at the entry point (startup code, no blocks).
  void runEntry(Plan &P, unsigned Count) const;
  /// Runs \p Count made-up instructions of lengths 1, 2, 3, ... from \p Address.
  static void runLibrary(Plan &P, uint64_t Address, unsigned Count);

private:
  /// Decodes the instructions of [Begin, End) (at most \p Max of them).
  std::vector<Step> decode(uint64_t Begin, uint64_t End, unsigned Max = ~0u) const;

  std::string Path;
  std::shared_ptr<CodeImage> Image;
  ExecutableLayout Layout;
  std::shared_ptr<llvm::object::OwningBinary<llvm::object::ObjectFile>> Object;
  std::shared_ptr<Disassembler> Dis;
};

/// Every event of a .bbtrace, in order.
std::vector<Event> readEvents(const std::string &BbtracePath);

/// Appends \p B's expected events and steps to \p A's (same thread).
void append(Plan &A, const Plan &B);

} // namespace mlgo::test
