/// \file
/// The per-column MLP.
#include "Network.h"

#include <algorithm>
#include <cassert>

namespace mlgo {

Network::Network(int Inputs, std::vector<int> Hidden)
    : Inputs(Inputs), Hidden(std::move(Hidden)),
      Params(parameterCount(Inputs, this->Hidden), 0.0f) {}

std::vector<int> Network::widths() const {
  std::vector<int> W = {Inputs};
  W.insert(W.end(), Hidden.begin(), Hidden.end());
  W.push_back(1);
  return W;
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
  std::vector<int> W = widths();
  assert(L + 1 < int(W.size()) && "no such layer");
  size_t Offset = 0;
  for (int I = 0; I < L; ++I)
    Offset += size_t(W[I]) * W[I + 1] + W[I + 1];
  return Offset;
}

size_t Network::biasOffset(int L) const {
  std::vector<int> W = widths();
  return weightOffset(L) + size_t(W[L]) * W[L + 1];
}

float Network::score(const float *Input, std::vector<float> &Scratch) const {
  // Scratch holds the current layer's input then its output, side by side.
  int MaxWidth = Inputs;
  for (int H : Hidden)
    MaxWidth = std::max(MaxWidth, H);
  Scratch.resize(2 * size_t(MaxWidth));
  float *In = Scratch.data(), *Out = In + MaxWidth;
  std::copy(Input, Input + Inputs, In);
  const float *P = Params.data();
  int InWidth = Inputs;
  for (size_t L = 0; L <= Hidden.size(); ++L) {
    bool Last = L == Hidden.size();
    int OutWidth = Last ? 1 : Hidden[L];
    const float *Bias = P + size_t(InWidth) * OutWidth;
    for (int O = 0; O < OutWidth; ++O) {
      const float *Row = P + size_t(O) * InWidth;
      float Sum = Bias[O];
      for (int I = 0; I < InWidth; ++I)
        Sum += Row[I] * In[I];
      Out[O] = Last ? Sum : std::max(Sum, 0.0f);
    }
    P = Bias + OutWidth;
    std::swap(In, Out);
    InWidth = OutWidth;
  }
  return In[0];
}

} // namespace mlgo
