/// \file
/// Deciding with a policy.
#include "Policy.h"

#include "ColumnEncoding.h"

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
  int64_t Best = -1;
  float BestScore = 0;
  for (int C = 0; C < NumColumns; ++C) {
    if (!O.legal(C))
      continue; // masked columns are not even scored
    encodeColumn(O, C, Input.data());
    float Score = Net.score(Input.data(), Scratch);
    if (Best < 0 || Score > BestScore) {
      Best = C;
      BestScore = Score;
    }
  }
  return Best < 0 ? CandidateColumn : Best;
}

} // namespace mlgo
