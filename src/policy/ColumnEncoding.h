/// \file
/// How one column of an observation becomes the input vector of the per-column
/// network. The encoding is fixed by the feature set (version 1), so a policy file
/// records its input names only to check them. The arithmetic itself is in
/// DecisionKernel.inc, which exported models share.
///
/// Inputs of column c, in order (ColumnInputs of them):
///   is_free, is_hint                 booleans as they are
///   is_local                         a count: min(x, 4) / 4
///   max_stage=0..6, min_stage=0..6   one-hot LiveRangeStage (RS_New .. RS_Done)
///   14 float features of column c    as LLVM sent them (already divided by their
///                                    largest value over the columns), clamped to
///                                    [0, 1]; NaN (an infinite weight) reads as 1
///   the same 14 of column 32         the live range being allocated, so a column can
///                                    be compared with it
///   progress                         as sent
///   is_candidate                     1 for column 32 only
#pragma once

#include "DecisionKernel.h"
#include "FeatureSet.h"

#include <string>
#include <vector>

namespace mlgo {

inline constexpr const char *ColumnEncodingName = "columns-v1";
using kernel::NumStages; ///< LiveRangeStage: RS_New .. RS_Done

/// The float features, in encoding order.
const std::vector<FeatureId> &floatFeatureIds();

/// The int64 feature that the kernel reads as \p Input.
FeatureId intInputFeature(kernel::IntInput Input);

/// The input names, e.g. "is_free", "max_stage=2", "use_def_density",
/// "candidate.use_def_density".
const std::vector<std::string> &columnInputNames();

int columnInputCount();

/// Index of an input by name; asserts it exists (for hand-set weights).
int columnInputIndex(const std::string &Name);

/// The fixed float transform: clamp to [0, 1], NaN to 1.
using kernel::normalizeFloatFeature;

/// Fills \p Out (columnInputCount() values) with column \p Column's inputs.
void encodeColumn(const Observation &O, int Column, float *Out);

} // namespace mlgo
