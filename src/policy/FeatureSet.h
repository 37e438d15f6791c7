/// \file
/// LLVM 22's eviction feature set: the 21 tensors the greedy allocator's ML advisor
/// sends per decision, and one decision's values (an Observation) parsed from the raw
/// bytes of the interactive protocol.
#pragma once

#include "support/Json.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace mlgo {

/// The name of the only feature set this build knows; policies and recordings carry it.
inline constexpr const char *EvictFeatureSetName = "llvm-22-regalloc-evict";

/// Columns per decision: 32 candidate registers in allocation order, then the live
/// range being allocated ("evict nothing": spill or split it).
inline constexpr int NumColumns = 33;
inline constexpr int CandidateColumn = 32;

enum class TensorType { Int64, Float };

struct FeatureSpec {
  std::string Name;
  TensorType Type;
  int Elements; ///< 33 for the per-column features, 1 for progress
  size_t byteSize() const {
    return size_t(Elements) * (Type == TensorType::Int64 ? 8 : 4);
  }
};

/// Feature indices, in the order LLVM 22 sends them.
enum FeatureId : int {
  F_mask,
  F_is_free,
  F_nr_urgent,
  F_nr_broken_hints,
  F_is_hint,
  F_is_local,
  F_nr_rematerializable,
  F_nr_defs_and_uses,
  F_weighed_reads_by_max,
  F_weighed_writes_by_max,
  F_weighed_read_writes_by_max,
  F_weighed_indvars_by_max,
  F_hint_weights_by_max,
  F_start_bb_freq_by_max,
  F_end_bb_freq_by_max,
  F_hottest_bb_freq_by_max,
  F_liverange_size,
  F_use_def_density,
  F_max_stage,
  F_min_stage,
  F_progress,
  NumFeatures
};

/// The specs of LLVM 22's set, in protocol order.
const std::vector<FeatureSpec> &evictFeatureSpecs();

/// Bytes of one observation (3436 for LLVM 22).
size_t observationByteSize();

/// The specs as JSON ({"name","type","shape"} objects, the compiler's own spelling).
Json featureSpecsToJson();

/// Checks that \p Features (a JSON array in the compiler's header or a policy file)
/// is exactly LLVM 22's set; \p Input names the source in the error.
llvm::Error checkFeatureSpecs(const Json &Features, llvm::StringRef Input);

/// One decision's feature values. Int64 tensors keep their values; float tensors are
/// as LLVM normalized them (divided by the largest value over the columns).
class Observation {
public:
  Observation();

  /// Parses the raw little-endian bytes of one observation.
  static llvm::Expected<Observation> fromBytes(llvm::ArrayRef<uint8_t> Bytes);
  /// The same layout back, for recordings and tests.
  std::vector<uint8_t> toBytes() const;

  int64_t intAt(FeatureId F, int Column) const;
  float floatAt(FeatureId F, int Column) const;
  void setInt(FeatureId F, int Column, int64_t Value);
  void setFloat(FeatureId F, int Column, float Value);

  bool legal(int Column) const { return intAt(F_mask, Column) != 0; }
  float progress() const { return floatAt(F_progress, 0); }

  /// {"mask":[...], ...}: every feature by name.
  Json toJSON() const;
  static llvm::Expected<Observation> fromJSON(const Json &Value, llvm::StringRef Input);

private:
  /// Per feature, its values; ints and floats each in their own storage.
  std::array<std::vector<int64_t>, NumFeatures> Ints;
  std::array<std::vector<float>, NumFeatures> Floats;
};

} // namespace mlgo
