/// \file
/// Explanations as JSON (replay --explain --json's "explain" array).
#include "replay/Explain.h"

namespace mlgo {

namespace {

Json instructionJSON(const std::optional<ExplainedInstruction> &I) {
  if (!I)
    return nullptr;
  return {{"address", I->Address}, {"text", I->Text},         {"cycles", I->Cycles},
          {"executions", I->Executions}, {"spill", I->Spill}, {"reload", I->Reload}};
}

Json countsJSON(const SpillCounts &C) {
  return {{"spills", C.Spills},
          {"reloads", C.Reloads},
          {"spills_run", C.SpillsRun},
          {"reloads_run", C.ReloadsRun}};
}

} // namespace

const char *codeChangeName(CodeChange C) {
  return C == CodeChange::None ? "same" : C == CodeChange::Registers ? "renamed" : "different";
}

Json FunctionExplanation::toJSON() const {
  Json Blocks = Json::array();
  for (const ExplainedBlock &B : this->Blocks) {
    Json Rows = Json::array();
    for (const ExplainedRow &R : B.Rows)
      Rows.push_back({{"baseline", instructionJSON(R.Baseline)},
                      {"candidate", instructionJSON(R.Candidate)},
                      {"mark", R.Mark}});
    Blocks.push_back({{"id", B.ID},
                      {"code", codeChangeName(B.Change)},
                      {"baseline_runs", B.BaselineRuns},
                      {"candidate_runs", B.CandidateRuns},
                      {"baseline_cycles", B.BaselineCycles},
                      {"candidate_cycles", B.CandidateCycles},
                      {"delta", B.delta()},
                      {"rows", Rows}});
  }
  return {{"function", Function},
          {"baseline_cycles", BaselineCycles},
          {"candidate_cycles", CandidateCycles},
          {"delta", delta()},
          {"baseline", countsJSON(Baseline)},
          {"candidate", countsJSON(Candidate)},
          {"blocks", Blocks}};
}

} // namespace mlgo
