/// \file
/// Building a step's log record.
#include "StepRecord.h"

#include <algorithm>
#include <numeric>

namespace mlgo {

Json stepRecord(uint64_t Step, const StepEvaluation &Unperturbed,
                const std::vector<double> &Rewards) {
  Json Record = {{"step", Step}};
  Record["unperturbed_speedup"] =
      Unperturbed.Result ? Json(Unperturbed.Result->Speedup) : Json(nullptr);
  if (!Rewards.empty()) {
    Record["reward_mean"] =
        std::accumulate(Rewards.begin(), Rewards.end(), 0.0) / Rewards.size();
    Record["reward_min"] = *std::min_element(Rewards.begin(), Rewards.end());
    Record["reward_max"] = *std::max_element(Rewards.begin(), Rewards.end());
  }
  return Record;
}

JobSpeedups unperturbedJobSpeedups(const JobSet &Jobs, const StepEvaluation &Unperturbed) {
  JobSpeedups Speedups;
  for (size_t J = 0; J < Jobs.size(); ++J) {
    std::optional<double> Speedup;
    if (Unperturbed.Result && J < Unperturbed.Result->JobSpeedups.size())
      Speedup = Unperturbed.Result->JobSpeedups[J];
    Speedups.emplace_back(Jobs.program(J).Name, Speedup);
  }
  return Speedups;
}

Json jobsRecord(const JobSpeedups &Speedups) {
  Json PerJob = Json::array();
  for (const auto &[Name, Speedup] : Speedups)
    PerJob.push_back({{"name", Name},
                      {"unperturbed_speedup", Speedup ? Json(*Speedup) : Json(nullptr)}});
  return PerJob;
}

void addFailures(Json &Record, const std::vector<StepEvaluation> &Outcomes) {
  unsigned Failures = 0;
  std::string FirstFailure;
  for (const StepEvaluation &O : Outcomes)
    if (!O.Result) {
      ++Failures;
      if (FirstFailure.empty())
        FirstFailure = O.Failure;
    }
  Record["evaluations"] = Outcomes.size();
  Record["failures"] = Failures;
  if (!FirstFailure.empty())
    Record["first_failure"] = FirstFailure;
}

void addWork(Json &Record, const std::vector<StepEvaluation> &Outcomes) {
  double Compile = 0, Replay = 0;
  unsigned CompilesReused = 0, ReplaysReused = 0;
  for (const StepEvaluation &O : Outcomes)
    if (O.Result) {
      Compile += O.Result->CompileSeconds;
      Replay += O.Result->ReplaySeconds;
      CompilesReused += O.Result->CompileReused;
      ReplaysReused += O.Result->ReplayReused;
    }
  Record["compiles_reused"] = CompilesReused;
  Record["replays_reused"] = ReplaysReused;
  Record["compile_seconds"] = Compile;
  Record["replay_seconds"] = Replay;
}

} // namespace mlgo
