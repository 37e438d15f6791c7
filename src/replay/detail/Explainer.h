/// \file
/// Building replay --explain's explanations (Explain.h) from two exact replays that
/// profiled their instructions, with the code images still at hand.
#pragma once

#include "code/CodeImage.h"
#include "replay/Explain.h"
#include "replay/Replay.h"
#include "replay/engine/InstructionProfile.h"
#include "replay/refill/FunctionMismatch.h"
#include "trace/SegmentTrace.h"

#include "llvm/Support/Error.h"

namespace mlgo {

/// Explains the Settings.Functions traced functions of \p Header with the largest
/// change in \p Comparison (those that changed). Each profile is by function index of
/// \p Header and address in the image its code came from: the baseline's from
/// \p Baseline, the candidate's from \p Candidate, or from \p Baseline for the
/// functions in \p CandidateFallbacks (CfgMismatchPolicy::UseBaseline).
llvm::Expected<std::vector<FunctionExplanation>>
explainChanges(const ReplayComparison &Comparison, const SegmentTraceHeader &Header,
               const CodeImage &Baseline, const CodeImage &Candidate,
               const std::vector<FunctionMismatch> &CandidateFallbacks,
               const InstructionProfile &BaselineProfile,
               const InstructionProfile &CandidateProfile, const ExplainSettings &Settings);

} // namespace mlgo
