/// \file
/// Laying out, evaluating and serializing a step's evaluations.
#include "StepEvaluations.h"
#include "support/Error.h"
#include "support/Interrupt.h"
#include "support/ParallelWork.h"

namespace mlgo {

Json StepEvaluation::toJSON() const {
  Json Out = {{"direction", Direction}, {"sign", Sign}, {"done", Done}};
  if (Result)
    Out["result"] = {{"speedup", Result->Speedup},
                     {"cycles", Result->Cycles},
                     {"decisions", Result->Decisions},
                     {"compile_seconds", Result->CompileSeconds},
                     {"replay_seconds", Result->ReplaySeconds},
                     {"compile_reused", Result->CompileReused},
                     {"replay_reused", Result->ReplayReused}};
  if (Result && !Result->JobSpeedups.empty())
    Out["result"]["job_speedups"] = Result->JobSpeedups;
  if (!Result)
    Out["failure"] = Failure;
  return Out;
}

namespace {

/// Reads the fields of a step evaluation, the first problem kept.
struct FieldReader {
  llvm::Error Problem = llvm::Error::success();

  template <typename T> void read(const Json &Object, const char *Key, T &Out) {
    if (Problem)
      return;
    auto Value = getJsonField<T>(Object, Key, "evaluation");
    if (Value)
      Out = std::move(*Value);
    else
      Problem = Value.takeError();
  }
};

} // namespace

llvm::Expected<StepEvaluation> StepEvaluation::fromJSON(const Json &Value) {
  StepEvaluation E;
  FieldReader Fields;
  Fields.read(Value, "direction", E.Direction);
  Fields.read(Value, "sign", E.Sign);
  Fields.read(Value, "done", E.Done);
  if (std::optional<Json> R = findJsonField<Json>(Value, "result")) {
    Evaluation Ev;
    Fields.read(*R, "speedup", Ev.Speedup);
    Fields.read(*R, "cycles", Ev.Cycles);
    Fields.read(*R, "decisions", Ev.Decisions);
    Fields.read(*R, "compile_seconds", Ev.CompileSeconds);
    Fields.read(*R, "replay_seconds", Ev.ReplaySeconds);
    Fields.read(*R, "compile_reused", Ev.CompileReused);
    Fields.read(*R, "replay_reused", Ev.ReplayReused);
    if (R->contains("job_speedups"))
      Fields.read(*R, "job_speedups", Ev.JobSpeedups);
    E.Result = Ev;
  } else {
    Fields.read(Value, "failure", E.Failure);
  }
  if (Fields.Problem) {
    std::string Why;
    llvm::handleAllErrors(std::move(Fields.Problem),
                          [&](const InputError &I) { Why = I.what(); });
    return stageError("a rank sent a malformed evaluation: {}", Why);
  }
  return E;
}

std::vector<StepEvaluation> layoutStep(unsigned Perturbations) {
  std::vector<StepEvaluation> Out(1 + 2 * Perturbations);
  for (unsigned D = 0; D < Perturbations; ++D) {
    Out[1 + 2 * D].Direction = Out[2 + 2 * D].Direction = int(D);
    Out[1 + 2 * D].Sign = +1;
    Out[2 + 2 * D].Sign = -1;
  }
  return Out;
}

Policy withParameters(const Policy &Init, const std::vector<float> &Parameters,
                      std::string Name) {
  Policy P = Init;
  P.parameters() = Parameters;
  P.setName(std::move(Name));
  return P;
}

std::vector<float> evaluatedParameters(const StepEvaluation &E,
                                       const std::vector<float> &Parameters,
                                       const std::vector<std::vector<float>> &Directions,
                                       double Sigma) {
  std::vector<float> Theta = Parameters;
  if (E.Direction >= 0)
    for (size_t J = 0; J < Theta.size(); ++J)
      Theta[J] += float(E.Sign * Sigma) * Directions[E.Direction][J];
  return Theta;
}

std::optional<size_t> bestEvaluation(const std::vector<StepEvaluation> &Evaluations) {
  std::optional<size_t> Best;
  for (size_t I = 0; I < Evaluations.size(); ++I)
    if (Evaluations[I].Result &&
        (!Best || Evaluations[I].Result->Speedup > Evaluations[*Best].Result->Speedup))
      Best = I;
  return Best;
}

llvm::Error evaluateShare(JobSet &Eval, const Policy &Init,
                          const std::vector<float> &Parameters,
                          const std::vector<std::vector<float>> &Directions,
                          const StepShare &Share, std::vector<StepEvaluation> &Evaluations) {
  std::vector<size_t> Mine;
  for (size_t I = Share.Offset; I < Evaluations.size(); I += Share.Stride)
    Mine.push_back(I);
  return runInParallel(Mine.size(), Share.Jobs, [&](size_t K) -> llvm::Error {
    size_t I = Mine[K];
    StepEvaluation &E = Evaluations[I];
    std::vector<float> Theta = evaluatedParameters(E, Parameters, Directions, Share.Sigma);
    std::string Name = fmt::format("{}step{}-{}", Share.NamePrefix, Share.Step, I);
    auto R = Eval.evaluate(withParameters(Init, Theta, Name), Name);
    if (interruptRequested())
      return R ? stageError("interrupted") : R.takeError();
    E.Done = true;
    if (R)
      E.Result = *R;
    else
      E.Failure = llvm::toString(R.takeError());
    return llvm::Error::success();
  });
}

} // namespace mlgo
