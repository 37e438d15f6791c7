/// \file
/// DynamoRIO's module list, `modules.log` (drcovlib's drmodtrack format, which
/// drmemtrace writes beside an offline trace): where each module was loaded.
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace mlgo {

/// One line of the table: a module, or (on Linux) one more segment of the module
/// ContainingId, mapped at [Start, End).
struct DrmemtraceModule {
  uint32_t Id = 0;
  uint32_t ContainingId = 0; ///< == Id for a module's first segment
  uint64_t Start = 0, End = 0;
  uint64_t Entry = 0;         ///< the module's run-time entry point
  uint64_t PreferredBase = 0; ///< the link-time address of Start
  std::string Path;

  int64_t loadBias() const { return static_cast<int64_t>(Start - PreferredBase); }
};

/// Parses "Module Table: version N, count M", the "Columns:" line, and M module lines.
/// Columns are found by name (id, containing_id, start, end, entry, preferred_base;
/// others are skipped); the drmemtrace custom field "v#V,SIZE," is followed by SIZE raw
/// bytes (the vdso's contents) before " path".
llvm::Expected<std::vector<DrmemtraceModule>> readModulesLog(llvm::StringRef Path);

} // namespace mlgo
