/// \file
/// The code of a linked binary as the trace and replay stages see it: functions, their
/// machine basic blocks from the BB address map (layout order), and each block cut into
/// segments after every call and every branch, so that (function, block ID, segment
/// index) names the same piece of code in every variant of the program.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlgo {

struct CodeSegment {
  uint64_t Address; ///< virtual address in the file (before any load bias)
  uint32_t Size;    ///< bytes
  uint32_t NumInstructions;
  uint32_t Block;   ///< index into CodeImage::blocks()
};

struct CodeBlock {
  uint32_t ID; ///< the machine basic block ID from the BB address map
  uint64_t Address;
  uint32_t Size;
  uint32_t FirstSegment;
  uint32_t NumSegments;
  uint32_t Function; ///< index into CodeImage::functions()
};

struct CodeFunction {
  std::string Name;
  /// For a local (static) function, the source file its symbol table names (STT_FILE),
  /// so that static functions of the same name in different modules stay apart.
  std::string File;
  uint64_t Address;
  uint32_t FirstBlock;
  uint32_t NumBlocks;

  /// "name" for a global function, "file:name" for a local one.
  std::string key() const { return File.empty() ? Name : File + ":" + Name; }
};

class CodeImage {
public:
  /// Loads a linked ELF binary built with -fbasic-block-address-map and disassembles its
  /// mapped blocks. LLVM's targets must be initialized. A binary without a BB address
  /// map, or whose map cannot be read, is an InputError naming it.
  static llvm::Expected<CodeImage> loadBinary(llvm::StringRef Path);

  const std::string &path() const { return Path; }
  /// "build-id:<hex>" when the binary has a GNU build ID, else "xxh3:<hex>" of its bytes.
  const std::string &identity() const { return Identity; }

  llvm::ArrayRef<CodeFunction> functions() const { return Functions; }
  llvm::ArrayRef<CodeBlock> blocks() const { return Blocks; }
  llvm::ArrayRef<CodeSegment> segments() const { return Segments; }

  /// The segment whose bytes contain \p Address, if any.
  std::optional<uint32_t> findSegment(uint64_t Address) const;
  /// The last segment that starts at or before \p Address within the same function's
  /// extent (for alignment padding between blocks), if any.
  std::optional<uint32_t> findSegmentAtOrBefore(uint64_t Address) const;

  uint64_t totalInstructions() const;

private:
  std::string Path;
  std::string Identity;
  std::vector<CodeFunction> Functions;
  std::vector<CodeBlock> Blocks;
  std::vector<CodeSegment> Segments; ///< in block order
  std::vector<uint32_t> SegmentsByAddress;
  /// The address ranges of the BB address map (a function may have several).
  struct FunctionRange {
    uint64_t Begin;
    uint64_t End;
    uint32_t Function;
  };
  std::vector<FunctionRange> Ranges; ///< sorted by Begin

  friend class CodeImageBuilder;
};

} // namespace mlgo
