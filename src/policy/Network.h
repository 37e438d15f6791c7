/// \file
/// The per-column scoring network: dense layers with ReLU between them and one linear
/// output (the column's score). Its parameters are one flat vector, the thing Evolution
/// Strategies perturbs. Layout, layer by layer from the input: the weights row-major
/// ([out][in], so weight (o, i) of layer l is at offset(l) + o * in + i), then the
/// out biases.
#pragma once

#include <cstddef>
#include <vector>

namespace mlgo {

class Network {
public:
  /// Bounds on the shape a policy file may declare (the built-in networks have 2
  /// hidden layers and 2,081 parameters): 64 MB of parameters at most.
  static constexpr size_t MaxHiddenLayers = 16;
  static constexpr int MaxLayerWidth = 4096;
  static constexpr size_t MaxParameters = size_t(1) << 24;

  Network() = default;
  /// \p Hidden sizes between \p Inputs and the single output; parameters start at 0.
  Network(int Inputs, std::vector<int> Hidden);

  int inputs() const { return Inputs; }
  const std::vector<int> &hidden() const { return Hidden; }
  /// Layer widths from the input to the output, e.g. {47, 32, 16, 1}.
  const std::vector<int> &widths() const { return Widths; }

  static size_t parameterCount(int Inputs, const std::vector<int> &Hidden);
  std::vector<float> &parameters() { return Params; }
  const std::vector<float> &parameters() const { return Params; }

  /// Offset of layer \p L's weights (L = 0 is the first hidden layer).
  size_t weightOffset(int L) const;
  size_t biasOffset(int L) const;

  /// The score of one input vector (DecisionKernel.inc's scoreNetwork); \p Scratch
  /// avoids allocating per call.
  float score(const float *Input, std::vector<float> &Scratch) const;

private:
  int Inputs = 0;
  std::vector<int> Hidden;
  std::vector<int> Widths;
  int MaxWidth = 0; ///< of the input and hidden layers
  std::vector<float> Params;
};

} // namespace mlgo
