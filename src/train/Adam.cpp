/// \file
/// The Adam update and its checkpointed state.
#include "Adam.h"

#include <cassert>
#include <cmath>
#include <limits>

namespace mlgo {

std::optional<size_t> Adam::step(std::vector<float> &Parameters,
                                  const std::vector<double> &Gradient) {
  assert(Parameters.size() == First.size() && Gradient.size() == First.size());
  double Correction1 = 1 - std::pow(Beta1, double(Steps + 1));
  double Correction2 = 1 - std::pow(Beta2, double(Steps + 1));
  // Computed aside and committed whole: a failed step leaves the last good state.
  std::vector<double> NewFirst(First.size()), NewSecond(Second.size());
  std::vector<float> Moved(Parameters.size());
  for (size_t I = 0; I < Parameters.size(); ++I) {
    NewFirst[I] = Beta1 * First[I] + (1 - Beta1) * Gradient[I];
    NewSecond[I] = Beta2 * Second[I] + (1 - Beta2) * Gradient[I] * Gradient[I];
    double Mean = NewFirst[I] / Correction1, Variance = NewSecond[I] / Correction2;
    double Next = Parameters[I] + StepSize * Mean / (std::sqrt(Variance) + Epsilon);
    // Checked before the narrowing: a double beyond the floats' range has no float.
    if (!std::isfinite(Next) || std::fabs(Next) > std::numeric_limits<float>::max())
      return I;
    Moved[I] = float(Next);
  }
  ++Steps;
  First = std::move(NewFirst);
  Second = std::move(NewSecond);
  Parameters = std::move(Moved);
  return std::nullopt;
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
  if (!(A.StepSize > 0))
    return inputError(Input, "the optimizer's step size {} is not positive", A.StepSize);
  for (auto [Name, Beta] : {std::pair{"beta1", A.Beta1}, {"beta2", A.Beta2}})
    if (!(Beta >= 0 && Beta < 1))
      return inputError(Input, "the optimizer's {} is {}, outside [0, 1)", Name, Beta);
  if (!(A.Epsilon > 0))
    return inputError(Input, "the optimizer's epsilon {} is not positive", A.Epsilon);
  for (double S : A.Second)
    if (S < 0)
      return inputError(Input, "the optimizer's second moment {} is negative", S);
  return A;
}

} // namespace mlgo
