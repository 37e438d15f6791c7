/// \file
/// Deciding with a policy.
#include "Policy.h"

#include "ColumnEncoding.h"
#include "ObservationView.h"

namespace mlgo {

Policy Policy::makeDefault() { return Policy(); }

Policy Policy::makeNetwork(std::string Name, Network Net) {
  assert(Net.inputs() == columnInputCount() && "network does not fit the encoding");
  Policy P;
  P.K = Kind::Network;
  P.Name = std::move(Name);
  P.Net = std::move(Net);
  return P;
}

std::vector<float> Policy::scores(const Observation &O) const {
  assert(usesAdvisor() && "the default policy has no scores");
  thread_local std::vector<float> Input, Scratch;
  Input.resize(columnInputCount());
  std::vector<float> Out(NumColumns);
  for (int C = 0; C < NumColumns; ++C) {
    encodeColumn(O, C, Input.data());
    Out[C] = Net.score(Input.data(), Scratch);
  }
  return Out;
}

int64_t Policy::decide(const Observation &O) const {
  assert(usesAdvisor() && "the default policy decides inside LLVM");
  thread_local std::vector<float> Input, Scratch;
  Input.resize(columnInputCount());
  auto Score = [&](const float *In) { return Net.score(In, Scratch); };
  return kernel::decideColumn(ObservationView(O), Score, Input.data());
}

} // namespace mlgo
