/// \file
/// The Adam update and its checkpointed state.
#include "Adam.h"

#include <cmath>

namespace mlgo {

void Adam::step(std::vector<float> &Parameters, const std::vector<double> &Gradient) {
  ++Steps;
  double Correction1 = 1 - std::pow(Beta1, double(Steps));
  double Correction2 = 1 - std::pow(Beta2, double(Steps));
  for (size_t I = 0; I < Parameters.size(); ++I) {
    First[I] = Beta1 * First[I] + (1 - Beta1) * Gradient[I];
    Second[I] = Beta2 * Second[I] + (1 - Beta2) * Gradient[I] * Gradient[I];
    double Mean = First[I] / Correction1, Variance = Second[I] / Correction2;
    Parameters[I] += float(StepSize * Mean / (std::sqrt(Variance) + Epsilon));
  }
}

Json Adam::toJSON() const {
  return {{"step_size", StepSize}, {"beta1", Beta1}, {"beta2", Beta2},
          {"epsilon", Epsilon},    {"steps", Steps}, {"first", First},
          {"second", Second}};
}

llvm::Expected<Adam> Adam::fromJSON(const Json &Value, llvm::StringRef Input) {
  Adam A;
  auto Read = [&](const char *Key, auto &Field) -> llvm::Error {
    auto V = getJsonField<std::decay_t<decltype(Field)>>(Value, Key, Input);
    if (!V)
      return V.takeError();
    Field = std::move(*V);
    return llvm::Error::success();
  };
  if (llvm::Error E = Read("step_size", A.StepSize))
    return E;
  if (llvm::Error E = Read("beta1", A.Beta1))
    return E;
  if (llvm::Error E = Read("beta2", A.Beta2))
    return E;
  if (llvm::Error E = Read("epsilon", A.Epsilon))
    return E;
  if (llvm::Error E = Read("steps", A.Steps))
    return E;
  if (llvm::Error E = Read("first", A.First))
    return E;
  if (llvm::Error E = Read("second", A.Second))
    return E;
  if (A.First.size() != A.Second.size())
    return inputError(Input, "the optimizer's moments differ in size");
  return A;
}

} // namespace mlgo
