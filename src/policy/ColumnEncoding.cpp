/// \file
/// The per-column input encoding (see ColumnEncoding.h for the layout).
#include "ColumnEncoding.h"

#include <algorithm>
#include <cassert>
#include <cmath>

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

float normalizeFloatFeature(float X) {
  if (std::isnan(X))
    return 1.0f;
  return std::clamp(X, 0.0f, 1.0f);
}

static void oneHot(int64_t Stage, float *Out) {
  std::fill(Out, Out + NumStages, 0.0f);
  Out[std::clamp<int64_t>(Stage, 0, NumStages - 1)] = 1.0f;
}

void encodeColumn(const Observation &O, int Column, float *Out) {
  float *P = Out;
  *P++ = O.intAt(F_is_free, Column) != 0;
  *P++ = O.intAt(F_is_hint, Column) != 0;
  *P++ = float(std::clamp<int64_t>(O.intAt(F_is_local, Column), 0, 4)) / 4.0f;
  oneHot(O.intAt(F_max_stage, Column), P);
  P += NumStages;
  oneHot(O.intAt(F_min_stage, Column), P);
  P += NumStages;
  for (FeatureId F : floatFeatureIds())
    *P++ = normalizeFloatFeature(O.floatAt(F, Column));
  for (FeatureId F : floatFeatureIds())
    *P++ = normalizeFloatFeature(O.floatAt(F, CandidateColumn));
  *P++ = O.progress();
  *P++ = Column == CandidateColumn;
  assert(P - Out == columnInputCount());
}

} // namespace mlgo
