/// \file
/// The per-column input encoding (see ColumnEncoding.h for the layout).
#include "ColumnEncoding.h"
#include "ObservationView.h"

#include <algorithm>
#include <cassert>

namespace mlgo {

const std::vector<FeatureId> &floatFeatureIds() {
  static const std::vector<FeatureId> Ids = [] {
    std::vector<FeatureId> V;
    for (int F = 0; F < NumFeatures; ++F)
      if (evictFeatureSpecs()[F].Type == TensorType::Float && F != F_progress)
        V.push_back(FeatureId(F));
    return V;
  }();
  return Ids;
}

FeatureId intInputFeature(kernel::IntInput Input) {
  static constexpr FeatureId Ids[] = {F_mask,     F_is_free,   F_is_hint,
                                      F_is_local, F_max_stage, F_min_stage};
  return Ids[int(Input)];
}

const std::vector<std::string> &columnInputNames() {
  static const std::vector<std::string> Names = [] {
    const auto &Specs = evictFeatureSpecs();
    std::vector<std::string> N = {"is_free", "is_hint", "is_local"};
    for (const char *Stage : {"max_stage", "min_stage"})
      for (int S = 0; S < NumStages; ++S)
        N.push_back(std::string(Stage) + "=" + std::to_string(S));
    for (FeatureId F : floatFeatureIds())
      N.push_back(Specs[F].Name);
    for (FeatureId F : floatFeatureIds())
      N.push_back("candidate." + Specs[F].Name);
    N.push_back("progress");
    N.push_back("is_candidate");
    return N;
  }();
  return Names;
}

int columnInputCount() { return int(columnInputNames().size()); }

int columnInputIndex(const std::string &Name) {
  const auto &N = columnInputNames();
  auto It = std::find(N.begin(), N.end(), Name);
  assert(It != N.end() && "unknown column input");
  return int(It - N.begin());
}

void encodeColumn(const Observation &O, int Column, float *Out) {
  kernel::encodeColumn(ObservationView(O), Column, Out);
}

} // namespace mlgo
