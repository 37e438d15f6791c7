/// \file
/// The code of a linked binary as the trace and replay stages see it: functions, their
/// machine basic blocks from the BB address map (layout order), and each block cut into
/// segments after every call and every branch, so that (function, block ID, segment
/// index) names the same piece of code in every variant of the program.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class MemoryBuffer;
}

namespace mlgo {

/// What ends a segment. A block's segments all end at a call or branch but its last,
/// which may also end where the block falls through to the next.
enum class SegmentEnd : uint8_t { Call, Branch, BlockEnd };

struct CodeSegment {
  /// Virtual address in the binary (before any load bias); in objects, an address the
  /// image gives each text section (objects are not linked).
  uint64_t Address;
  uint32_t Size;    ///< bytes
  uint32_t NumInstructions;
  uint32_t Block;   ///< index into CodeImage::blocks()
  SegmentEnd End;
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
  /// Loads the code of relocatable objects (one per module, with or without
  /// -ffunction-sections) as if linked: each text section gets its own addresses.
  /// \p Name names the set in messages (e.g. their directory). Functions that several
  /// objects define (inline functions) are taken from the first. GOT loads of symbols
  /// the objects define, or \p LinkedGlobals (the globals of the program they are
  /// linked into, if known: readLinkedGlobals), are relaxed as the linker relaxes them.
  static llvm::Expected<CodeImage>
  loadObjects(llvm::ArrayRef<std::string> Paths, llvm::StringRef Name,
              const llvm::StringSet<> *LinkedGlobals = nullptr);
  /// A linked binary, or a directory whose *.o files (searched recursively, in path
  /// order, without following symbolic links to directories; a file reached by two
  /// names counts once) are the objects of a variant (loadObjects).
  static llvm::Expected<CodeImage> load(llvm::StringRef Path,
                                        const llvm::StringSet<> *LinkedGlobals = nullptr);

  const std::string &path() const { return Path; }
  /// "build-id:<hex>" when the binary has a GNU build ID, else "xxh3:<hex>" of its bytes;
  /// for objects, "objects:xxh3:<hex>" of all their bytes.
  const std::string &identity() const { return Identity; }
  /// The target triple of the code, e.g. "x86_64-unknown-linux-gnu".
  const std::string &triple() const { return Triple; }

  llvm::ArrayRef<CodeFunction> functions() const { return Functions; }
  llvm::ArrayRef<CodeBlock> blocks() const { return Blocks; }
  llvm::ArrayRef<CodeSegment> segments() const { return Segments; }

  /// The segment whose bytes contain \p Address, if any.
  std::optional<uint32_t> findSegment(uint64_t Address) const;
  /// The last segment that starts at or before \p Address within the same function's
  /// extent (for alignment padding between blocks), if any.
  std::optional<uint32_t> findSegmentAtOrBefore(uint64_t Address) const;

  /// The function with CodeFunction::key() \p Key, if any.
  std::optional<uint32_t> findFunction(llvm::StringRef Key) const;

  /// The code bytes of a segment.
  llvm::ArrayRef<uint8_t> code(const CodeSegment &S) const {
    return code(S.Address, S.Size);
  }
  /// The bytes at [Address, Address + Size), or none if they are not all code.
  llvm::ArrayRef<uint8_t> code(uint64_t Address, uint64_t Size) const;
  /// The bytes between the end of segment \p Segment and the next segment of its
  /// function (alignment padding that execution may fall through), possibly none.
  llvm::ArrayRef<uint8_t> paddingAfter(uint32_t Segment) const;

  uint64_t totalInstructions() const;

private:
  std::string Path;
  std::string Identity;
  std::string Triple;
  /// The files the code points into; shared so that an image may be copied.
  std::vector<std::shared_ptr<llvm::MemoryBuffer>> Buffers;
  struct TextRange {
    uint64_t Address;
    llvm::StringRef Bytes;
  };
  std::vector<TextRange> Texts; ///< sorted by Address
  llvm::StringMap<uint32_t> FunctionsByKey;
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
