/// \file
/// One pass over a .bbtrace that counts the instructions it ran in each function of the
/// recorded binary: what subset and replay need to know before their real work.
#pragma once

#include "SegmentTrace.h"

#include "llvm/Support/Error.h"
#include <map>
#include <string>
#include <vector>

namespace mlgo {

struct TraceProfile {
  std::string Path;
  SegmentTraceHeader Header;
  std::vector<SegmentTraceReader::SegmentName> Segments;
  /// Per function of Header: instructions run in it (padding included).
  std::vector<uint64_t> FunctionInstructions;
  /// Per function of Header: whether any of its code ran.
  std::vector<bool> Executed;
  uint64_t Instructions = 0;         ///< all traced instructions
  /// Per thread: its events (the ordinals RefilledCode::Event runs through).
  std::map<uint32_t, uint64_t> ThreadEvents;
  uint64_t UnmappedInstructions = 0; ///< outside mapped code
  /// Whether unmapped code is kept as code chunks (a version 2 trace), and how many of
  /// the unmapped instructions are in them.
  bool KeepsUnmappedCode = false;
  uint64_t UnmappedCodeInstructions = 0;
  /// Per collector module id (0: no module, always there): its path or a stand-in.
  std::vector<std::string> ModuleNames;
  /// Whether the trace has load dependences (version 3), and they.
  bool HasLoadDependences = false;
  LoadDependences Loads;
};

/// Reads the whole trace at \p Path.
llvm::Expected<TraceProfile> profileTrace(llvm::StringRef Path);

} // namespace mlgo
