/// \file
/// The reward curve of a training run as an SVG: the unperturbed policy's predicted
/// speedup per step (a line) over the perturbations' range (a band), the best so far of
/// every evaluation, perturbations included (a dashed line), a legend, and the best
/// policy's validation (points at the step it was validated after, labelled); the last
/// validation also as DIR/report.md.
#include "RunDirectory.h"
#include "Train.h"
#include "Validation.h"
#include "support/Printable.h"
#include "support/Error.h"
#include "support/InputFile.h"
#include "support/OutputFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace mlgo {

namespace {

struct StepPoint {
  double Step;
  std::optional<double> Unperturbed, Low, High, Best;
};

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

/// A validation point: the best policy's speedup on one trace.
struct ValidationPoint {
  double Step, Speedup; ///< a fraction, as the log's
  std::string Label;
  bool HeldOut;
};

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

/// Text as SVG character data.
std::string escapeXml(llvm::StringRef Text) {
  std::string Out;
  for (char C : printable(Text))
    switch (C) {
    case '<': Out += "&lt;"; break;
    case '>': Out += "&gt;"; break;
    case '&': Out += "&amp;"; break;
    case '"': Out += "&quot;"; break;
    default: Out += C;
    }
  return Out;
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
  std::vector<ValidationPoint> Checked = validationPoints(Validations);

  // Axes: steps left to right, speedup in percent bottom to top, 0 always shown.
  double Low = 0, High = 0;
  for (const StepPoint &P : Points)
    for (const std::optional<double> &V : {P.Unperturbed, P.Low, P.High, P.Best})
      if (V) {
        Low = std::min(Low, *V * 100);
        High = std::max(High, *V * 100);
      }
  for (const ValidationPoint &P : Checked) {
    Low = std::min(Low, P.Speedup * 100);
    High = std::max(High, P.Speedup * 100);
  }
  if (High - Low < 1e-3) // a constant series, all 0 if none
    High = Low + 1e-3;
  double LastStep = 1;
  for (const StepPoint &P : Points)
    LastStep = std::max(LastStep, P.Step);
  for (const ValidationPoint &P : Checked)
    LastStep = std::max(LastStep, P.Step);
  constexpr double Width = 640, Height = 360, Left = 70, Right = 20, Top = 30, Bottom = 45;
  auto X = [&](double Step) { return Left + (Width - Left - Right) * Step / LastStep; };
  // The fraction first, in halves: High - Low overflows near the doubles' limits.
  auto Y = [&](double Percent) {
    return Top + (Height - Top - Bottom) * ((High / 2 - Percent / 2) / (High / 2 - Low / 2));
  };

  // Coordinates that are not finite (a range too wide for doubles) are left out.
  auto Point = [&](double Step, double Speedup) -> std::optional<std::string> {
    double PX = X(Step), PY = Y(Speedup * 100);
    if (!std::isfinite(PX) || !std::isfinite(PY))
      return std::nullopt;
    return fmt::format("{:.1f},{:.1f} ", PX, PY);
  };
  std::string Upper, Lower, Line, BestLine;
  for (const StepPoint &P : Points) {
    if (P.Best)
      if (auto At = Point(P.Step, *P.Best))
        BestLine += *At;
    if (P.Low && P.High) {
      auto Above = Point(P.Step, *P.High), Below = Point(P.Step, *P.Low);
      if (Above && Below) {
        Upper += *Above;
        Lower = *Below + Lower;
      }
    }
    if (P.Unperturbed)
      if (auto At = Point(P.Step, *P.Unperturbed))
        Line += *At;
  }
  std::string Svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n"
      "<text x=\"{2}\" y=\"18\">predicted speedup over default (%) per training step</text>\n",
      Width, Height, Left);
  Svg += fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" "
                     "stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n",
                     Left, Y(0), Width - Right);
  Svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"black\"/>\n"
                     "<line x1=\"{0}\" y1=\"{2}\" x2=\"{3}\" y2=\"{2}\" stroke=\"black\"/>\n",
                     Left, Top, Height - Bottom, Width - Right);
  Svg += fmt::format("<text x=\"{0}\" y=\"{1:.1f}\" text-anchor=\"end\">{2:+.3f}</text>\n"
                     "<text x=\"{0}\" y=\"{3:.1f}\" text-anchor=\"end\">{4:+.3f}</text>\n",
                     Left - 6, Y(High) + 4, High, Y(Low) + 4, Low);
  Svg += fmt::format("<text x=\"{0}\" y=\"{1}\">0</text>\n<text x=\"{2}\" y=\"{1}\" "
                     "text-anchor=\"end\">step {3:g}</text>\n",
                     Left, Height - Bottom + 18, Width - Right, LastStep);
  // Each series' look, drawn by its line and by its sample in the legend.
  struct Series {
    const char *Name, *Stroke;
  };
  const Series Unperturbed = {"unperturbed policy", "stroke=\"#08519c\" stroke-width=\"2\""};
  const Series BestSoFar = {"best so far", "stroke=\"#238b45\" stroke-width=\"1.5\" "
                                           "stroke-dasharray=\"6 3\""};
  const Series Band = {"perturbations: lowest to highest",
                       "stroke=\"#9ecae1\" stroke-opacity=\"0.8\" stroke-width=\"8\""};
  if (!Upper.empty())
    Svg += fmt::format("<polygon points=\"{}{}\" fill=\"#9ecae1\" fill-opacity=\"0.5\">"
                       "<title>{}</title></polygon>\n",
                       Upper, Lower, Band.Name);
  for (auto [Points, S] : {std::pair{&Line, &Unperturbed}, {&BestLine, &BestSoFar}})
    if (!Points->empty())
      Svg += fmt::format("<polyline points=\"{}\" fill=\"none\" {}><title>{}</title>"
                         "</polyline>\n",
                         *Points, S->Stroke, S->Name);
  // The legend, top left inside the plot: a sample of each series and its name.
  const Series *Legend[] = {&Unperturbed, &BestSoFar, &Band};
  for (size_t I = 0; I < std::size(Legend); ++I) {
    double LY = Top + 12 + 15 * I;
    Svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" {3}/>"
                       "<text x=\"{4}\" y=\"{5}\">{6}</text>\n",
                       Left + 10, LY, Left + 34, Legend[I]->Stroke, Left + 40, LY + 4,
                       Legend[I]->Name);
  }
  // The axes' names: steps along, predicted speedup up.
  Svg += fmt::format("<text x=\"{0:.1f}\" y=\"{1}\" text-anchor=\"middle\">training step"
                     "</text>\n<text transform=\"translate(16 {2:.1f}) rotate(-90)\" "
                     "text-anchor=\"middle\">predicted speedup over default (%)</text>\n",
                     (Left + Width - Right) / 2, Height - 8, (Top + Height - Bottom) / 2);
  // Validation: a point per trace at the step the best policy was validated after, its
  // label to the left (the points sit at the curve's end), one line each.
  unsigned Shown = 0;
  for (const ValidationPoint &P : Checked) {
    if (!Point(P.Step, P.Speedup))
      continue;
    double PX = X(P.Step), PY = Y(P.Speedup * 100);
    const char *Colour = P.HeldOut ? "#d95f02" : "#1b9e77";
    std::string Text = fmt::format("{} {:+.3f}%", escapeXml(P.Label), 100 * P.Speedup);
    Svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"5\" fill=\"{}\">"
                       "<title>best policy, validated: {}</title></circle>\n",
                       PX, PY, Colour, Text);
    Svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\" fill=\"{}\">"
                       "{}</text>\n",
                       PX - 8, Top + 14 + 14 * Shown++, Colour, Text);
  }
  Svg += "</svg>\n";
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
