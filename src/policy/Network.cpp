/// \file
/// The per-column MLP.
#include "Network.h"
#include "DecisionKernel.h"

#include <algorithm>
#include <cassert>

namespace mlgo {

Network::Network(int Inputs, std::vector<int> Hidden)
    : Inputs(Inputs), Hidden(std::move(Hidden)),
      Params(parameterCount(Inputs, this->Hidden), 0.0f) {
  Widths = {Inputs};
  Widths.insert(Widths.end(), this->Hidden.begin(), this->Hidden.end());
  Widths.push_back(1);
  MaxWidth = *std::max_element(Widths.begin(), Widths.end() - 1);
}

size_t Network::parameterCount(int Inputs, const std::vector<int> &Hidden) {
  size_t Count = 0;
  int In = Inputs;
  for (int Out : Hidden) {
    Count += size_t(In) * Out + Out;
    In = Out;
  }
  return Count + In + 1;
}

size_t Network::weightOffset(int L) const {
  const std::vector<int> &W = widths();
  assert(L + 1 < int(W.size()) && "no such layer");
  size_t Offset = 0;
  for (int I = 0; I < L; ++I)
    Offset += size_t(W[I]) * W[I + 1] + W[I + 1];
  return Offset;
}

size_t Network::biasOffset(int L) const {
  const std::vector<int> &W = widths();
  return weightOffset(L) + size_t(W[L]) * W[L + 1];
}

float Network::score(const float *Input, std::vector<float> &Scratch) const {
  assert(!Widths.empty() && "a default-constructed network has no layers");
  Scratch.resize(2 * size_t(MaxWidth));
  return kernel::scoreNetwork(Params.data(), Widths.data(), int(Widths.size()) - 1, Input,
                              Scratch.data(), MaxWidth);
}

} // namespace mlgo
