/// \file
/// Why a candidate is predicted slower or faster (replay --explain): for the functions
/// whose predicted cycles changed most, the blocks that changed most, baseline and
/// candidate side by side, instruction by instruction, with the cycles each was
/// attributed over the trace and the spills and reloads the allocator added or removed.
/// Variants share the CFG, so a block is the same block in both by its ID.
#pragma once

#include "support/Json.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlgo {

struct ExplainedInstruction {
  uint64_t Address = 0; ///< in the variant's code image
  std::string Text;     ///< disassembled (Intel syntax on x86)
  /// Over the trace: the cycles attributed to it (those since the previous retirement,
  /// as for functions) and how often it ran.
  uint64_t Cycles = 0, Executions = 0;
  /// A store to a stack slot ([rsp + c] or [rbp + c], no index): a spill; a load from
  /// one: a reload (an instruction that does both counts as both).
  bool Spill = false, Reload = false;
};

/// One line of a block's listing: the same instruction in both (aligned by opcode), or
/// one only the baseline or only the candidate has.
struct ExplainedRow {
  std::optional<ExplainedInstruction> Baseline, Candidate;
  /// For a spill or reload: "+spill"/"+reload" when only the candidate has it,
  /// "-spill"/"-reload" when only the baseline has it, "spill"/"reload" when both do
  /// ("reload+spill" and the like for one that does both); else empty.
  std::string Mark;
};

/// How a block's code differs between baseline and candidate. Where it does not, its
/// change in cycles comes from the code around it.
enum class CodeChange : uint8_t {
  None,      ///< the same instructions (branch targets and pc-relative addresses aside)
  Registers, ///< the same but for register names
  Code,      ///< instructions added, removed or changed
};

/// "same", "renamed" or "different", as JSON spells a CodeChange.
const char *codeChangeName(CodeChange C);

struct ExplainedBlock {
  uint32_t ID = 0; ///< the machine basic block ID, shared by both variants
  CodeChange Change = CodeChange::None;
  /// How often the block ran, and the cycles of its instructions, in each variant.
  uint64_t BaselineRuns = 0, CandidateRuns = 0;
  uint64_t BaselineCycles = 0, CandidateCycles = 0;
  std::vector<ExplainedRow> Rows;

  int64_t delta() const { return int64_t(CandidateCycles) - int64_t(BaselineCycles); }
};

/// Spills and reloads in a function's code, and how often they ran over the trace.
struct SpillCounts {
  uint32_t Spills = 0, Reloads = 0;
  uint64_t SpillsRun = 0, ReloadsRun = 0;
};

struct FunctionExplanation {
  std::string Function; ///< CodeFunction::key()
  uint64_t BaselineCycles = 0, CandidateCycles = 0;
  SpillCounts Baseline, Candidate;
  /// The blocks whose cycles changed most (at most ExplainSettings::Blocks), largest
  /// change first; a block whose cycles did not change is not listed.
  std::vector<ExplainedBlock> Blocks;

  int64_t delta() const { return int64_t(CandidateCycles) - int64_t(BaselineCycles); }
  Json toJSON() const;
};

/// How much replay --explain shows.
struct ExplainSettings {
  uint32_t Functions = 0; ///< the functions with the largest change; 0: no explanation
  uint32_t Blocks = 3;    ///< per function, the blocks with the largest change
};

} // namespace mlgo
