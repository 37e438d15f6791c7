/// \file
/// train --report: the run's log read leniently into the reward curve (RewardCurve.h)
/// and, once validated, DIR/report.md: the last validation, the shortlist and the last
/// native measurement.
#include "RewardCurve.h"
#include "RunDirectory.h"
#include "TrainReports.h"
#include "ValidationMarkdown.h"
#include "support/Error.h"
#include "support/InputFile.h"
#include "support/OutputFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <optional>

namespace mlgo {

namespace {

/// A number of the record; none if missing, or if it would not plot (a log may hold
/// anything, and 1e308 % is an infinity).
std::optional<double> numberAt(const Json &Record, const char *Key, double Scale = 1) {
  std::optional<double> Value = findJsonField<double>(Record, Key);
  if (Value && std::isfinite(*Value * Scale))
    return Value;
  return std::nullopt;
}

/// The report's section of a native measurement (NativeMeasure.h), if there is one.
std::string nativeMarkdown(const Json &Native) {
  std::string Lines = describeNative(Native);
  if (Lines.empty())
    return "";
  std::string Out = fmt::format(
      "\n## Measured natively\n\nThe whole program built with each policy and with "
      "`default`, measured as `mlgo-ra measure` does ({} mode, run as `{}`; {}): the "
      "median speedup over `default` [its 95% confidence interval]; above noise when the "
      "interval excludes 0. The control is `default`'s own code measured as a policy.\n\n",
      Native.value("mode", std::string("?")), Native.value("run", std::string()),
      Native.value("metric", std::string("?")));
  for (llvm::StringRef Line : llvm::split(llvm::StringRef(Lines).rtrim('\n'), '\n'))
    Out += "- " + Line.str() + "\n";
  return Out;
}

/// The report's section of the shortlist (train --shortlist), if the run keeps one: its
/// policies, best first, each with the step that evaluated it and its predicted speedup.
/// Reads leniently: a file that is not a shortlist's index gives no section.
std::string shortlistMarkdown(llvm::StringRef Directory) {
  auto Index = readJsonFile(Directory.str() + "/" + TrainShortlistFile);
  if (!Index) { // a run without a shortlist
    llvm::consumeError(Index.takeError());
    return "";
  }
  if (!Index->is_array())
    return "";
  std::string Out = fmt::format(
      "\n## Shortlist\n\nThe {} best distinct policies evaluated, by predicted speedup over "
      "`default` on the training trace; the engine cannot rank gains this small, so a "
      "native measurement should choose among them.\n\n| policy | step | predicted |\n"
      "|---|---|---|\n",
      Index->size());
  for (const Json &Entry : *Index) {
    std::optional<double> Speedup = numberAt(Entry, "speedup", 100);
    std::optional<uint64_t> Step = findJsonField<uint64_t>(Entry, "step");
    Out += fmt::format("| {} | {} | {} |\n",
                       findJsonField<std::string>(Entry, "policy").value_or("?"),
                       Step ? std::to_string(*Step) : "?",
                       Speedup ? fmt::format("{:+.3f}%", 100 * *Speedup) : "n/a");
  }
  return Out;
}

/// The points of the validation records, the last record of each step count.
std::vector<ValidationPoint> validationPoints(const std::map<double, Json> &Records) {
  std::vector<ValidationPoint> Points;
  for (const auto &[Steps, Record] : Records) {
    if (!Record.contains("traces") || !Record["traces"].is_array())
      continue;
    for (const Json &Trace : Record["traces"]) {
      std::optional<double> Speedup = numberAt(Trace, "best_speedup", 100);
      if (!Speedup)
        continue;
      bool HeldOut = findJsonField<bool>(Trace, "held_out").value_or(false);
      std::string Name = findJsonField<std::string>(Trace, "trace").value_or("?");
      Name = llvm::sys::path::filename(Name).str();
      // With jobs, a whole trace per job: named by its job.
      std::optional<std::string> Job = findJsonField<std::string>(Trace, "job");
      std::string Label = HeldOut ? "best, held out: " + Name : "best, whole trace";
      if (Job && !HeldOut)
        Label += ": " + *Job;
      Points.push_back({std::max(0.0, Steps - 1), *Speedup, Label, HeldOut});
    }
  }
  return Points;
}

} // namespace

llvm::Expected<std::vector<std::string>> writeTrainReport(llvm::StringRef Directory) {
  std::string LogPath = Directory.str() + "/" + TrainLogFile;
  auto Buffer = readRegularFile(LogPath);
  if (!Buffer)
    return Buffer.takeError();
  std::vector<StepPoint> Points;
  llvm::SmallVector<llvm::StringRef> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n', -1, false);
  std::map<double, Json> Validations; // by steps validated after
  Json Native;                         // the last native measurement
  for (llvm::StringRef Line : Lines) {
    Json Record = Json::parse(Line.str(), nullptr, false);
    if (Record.is_object() && Record.contains("native")) {
      Native = Record["native"];
      continue;
    }
    if (Record.is_object() && Record.contains("validation")) {
      const Json &V = Record["validation"];
      if (std::optional<double> Steps = numberAt(V, "steps"))
        Validations[*Steps] = V;
      continue;
    }
    std::optional<double> Step = numberAt(Record, "step");
    if (!Step)
      return inputError(LogPath, "holds a line that is not a step record");
    Points.push_back({*Step, numberAt(Record, "unperturbed_speedup", 100),
                      numberAt(Record, "reward_min", 100),
                      numberAt(Record, "reward_max", 100),
                      numberAt(Record, "best_speedup", 100)});
  }
  if (Points.empty())
    return inputError(LogPath, "holds no steps yet");
  std::string Svg = rewardCurveSvg(Points, validationPoints(Validations));
  std::vector<std::string> Written;
  std::string Path = Directory.str() + "/reward.svg";
  if (llvm::Error E = writeFileAtomically(Path, Svg))
    return E;
  Written.push_back(Path);
  if (!Validations.empty()) {
    std::string Report = Directory.str() + "/report.md";
    if (llvm::Error E = writeFileAtomically(
            Report, validationMarkdown(Validations.rbegin()->second, Directory) +
                        shortlistMarkdown(Directory) + nativeMarkdown(Native)))
      return E;
    Written.push_back(Report);
  }
  return Written;
}

} // namespace mlgo
