/// \file
/// What train prints: a line per step, the summary of a run, and the lines of its
/// validation record.
#include "TrainReports.h"
#include "TrainOptions.h"
#include "TrainResult.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace mlgo {

namespace {

std::string percent(const Json &Record, const char *Key) {
  if (!Record.contains(Key) || !Record[Key].is_number())
    return "n/a";
  // The best speedup before any evaluation succeeded is the lowest double.
  double Value = 100 * Record[Key].get<double>();
  return std::isfinite(Value) ? fmt::format("{:+.3f}%", Value) : "n/a";
}

} // namespace

std::string stepLine(const Json &Record, unsigned Iterations, double EtaSeconds) {
  std::string PerJob;
  if (Record.contains("jobs")) {
    for (const Json &J : Record["jobs"])
      PerJob += fmt::format("{}{} {}", PerJob.empty() ? " (" : ", ",
                            J["name"].get<std::string>(), percent(J, "unperturbed_speedup"));
    PerJob += ")";
  }
  std::string Of =
      Iterations == SearchOptions::NoIterationLimit ? "" : fmt::format("/{}", Iterations);
  return fmt::format(
      "step {}{}: unperturbed {}{}, perturbations {} .. {}, best {}, {} failed{}, "
      "{:.1f} s (compile {:.1f}, replay {:.1f}), eta {:.0f} s",
      Record["step"].get<uint64_t>() + 1, Of, percent(Record, "unperturbed_speedup"),
      PerJob, percent(Record, "reward_min"), percent(Record, "reward_max"),
      percent(Record, "best_speedup"), Record["failures"].get<unsigned>(),
      Record["skipped"].get<bool>() ? ", step skipped" : "", Record["seconds"].get<double>(),
      Record["compile_seconds"].get<double>(), Record["replay_seconds"].get<double>(),
      EtaSeconds);
}

double etaSeconds(double MeanStepSeconds, uint64_t StepsLeft,
                  std::optional<double> BudgetLeftSeconds) {
  double Steps = double(StepsLeft);
  // A step starts while the budget lasts, so the last one may end past it.
  if (BudgetLeftSeconds && MeanStepSeconds > 0)
    Steps = std::min(Steps, std::ceil(std::max(0.0, *BudgetLeftSeconds) / MeanStepSeconds));
  return Steps * MeanStepSeconds;
}

std::string validationText(const Json &Record) {
  const Json &V = Record["validation"];
  std::string Text = fmt::format("train: validation of {} after {} steps ({} replay of "
                                 "whole traces), predicted speedup over default:\n",
                                 V["policy"].get<std::string>(), V["steps"].get<uint64_t>(),
                                 V["mode"].get<std::string>());
  for (const Json &T : V["traces"])
    Text += fmt::format(
        "  {}{} ({}): best {}, start ({}) {}; {} functions changed\n",
        T.contains("job") ? "job " + T["job"].get<std::string>() + ": " : "",
        T["trace"].get<std::string>(),
        T["held_out"].get<bool>() ? "held out" : "the training trace",
        percent(T, "best_speedup"), V["start"].get<std::string>(),
        percent(T, "start_speedup"), T["changed_functions"].get<uint64_t>());
  return Text;
}

Json summaryJson(const TrainResult &R, llvm::StringRef Output) {
  Json Summary = {{"steps", R.Steps},
                  {"budget_spent", R.BudgetSpent},
                  {"initial_speedup", R.InitialSpeedup},
                  {"final_speedup", R.FinalSpeedup},
                  {"best_speedup", R.BestSpeedup},
                  {"best_policy", R.BestPolicy},
                  {"output", Output.str()}};
  if (!R.FinalJobSpeedups.empty()) {
    Json Jobs = Json::array();
    for (const auto &[Name, Speedup] : R.FinalJobSpeedups)
      Jobs.push_back({{"name", Name}, {"final_speedup", Speedup ? Json(*Speedup) : Json()}});
    Summary["jobs"] = std::move(Jobs);
  }
  if (!R.Shortlist.empty())
    Summary["shortlist"] = {{"index", R.Shortlist}, {"speedups", R.ShortlistSpeedups}};
  if (!R.Validation.is_null())
    Summary["validation"] = R.Validation["validation"];
  if (!R.Native.is_null())
    Summary["native"] = R.Native["native"];
  return Summary;
}

std::string summaryText(const TrainResult &R, llvm::StringRef Output) {
  std::string Text = fmt::format(
      "train: {} steps in {}{}; predicted speedup over default: {:+.3f}% at step 0, "
      "{:+.3f}% at the last step, best {:+.3f}% ({})\n",
      R.Steps, Output.str(), R.BudgetSpent ? " (the time budget is spent)" : "",
      100 * R.InitialSpeedup, 100 * R.FinalSpeedup,
      100 * R.BestSpeedup, R.BestPolicy);
  if (!R.FinalJobSpeedups.empty()) {
    std::string PerJob;
    for (const auto &[Name, Speedup] : R.FinalJobSpeedups)
      PerJob += fmt::format("{}{} {}", PerJob.empty() ? "" : ", ", Name,
                            Speedup ? fmt::format("{:+.3f}%", 100 * *Speedup) : "n/a");
    Text += "train: per job at the last step (the mean is the reward): " + PerJob + "\n";
  }
  if (!R.ShortlistSpeedups.empty())
    Text += fmt::format("train: shortlist of {} policies, predicted {:+.3f}% .. {:+.3f}% "
                        "({})\n",
                        R.ShortlistSpeedups.size(), 100 * R.ShortlistSpeedups.back(),
                        100 * R.ShortlistSpeedups.front(), R.Shortlist);
  if (!R.Validation.is_null())
    Text += validationText(R.Validation);
  return Text + nativeText(R.Native);
}

} // namespace mlgo
