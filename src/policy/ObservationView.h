/// \file
/// An Observation as the decision kernel reads it (the view DecisionKernel.inc describes).
#pragma once

#include "ColumnEncoding.h"
#include "DecisionKernel.h"
#include "FeatureSet.h"

namespace mlgo {

class ObservationView {
public:
  explicit ObservationView(const Observation &O) : O(O), Floats(floatFeatureIds()) {}
  int numColumns() const { return NumColumns; }
  std::int64_t intAt(kernel::IntInput Input, int Column) const {
    return O.intAt(intInputFeature(Input), Column);
  }
  int numColumnFloats() const { return int(Floats.size()); }
  float columnFloat(int I, int Column) const { return O.floatAt(Floats[I], Column); }
  float progress() const { return O.progress(); }

private:
  const Observation &O;
  const std::vector<FeatureId> &Floats;
};

} // namespace mlgo
