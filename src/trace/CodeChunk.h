/// \file
/// A code chunk: the bytes of a straight-line run of instructions that ran outside
/// mapped code (a shared library, the binary's PLT or startup code), kept in a .bbtrace
/// recorded with --keep-unmapped so that replay can simulate them too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mlgo {

struct CodeChunk {
  uint32_t Id = 0;     ///< 0, 1, 2... in order of definition
  uint32_t Module = 0; ///< the collector's module id (0: no known object)
  uint64_t Address = 0; ///< run-time address of the first instruction
  /// Per instruction as the collector counted it. Valgrind counts a client request (a
  /// 16-byte preamble and the request's own instruction) as one of 19 bytes.
  std::vector<uint8_t> InstrLengths;
  std::vector<uint8_t> Bytes; ///< the code, InstrLengths summed

  size_t numInstructions() const { return InstrLengths.size(); }
};

} // namespace mlgo
