/// \file
/// The reward curve of a training run as an SVG: the unperturbed policy's predicted
/// speedup per step (a line) over the perturbations' range (a band).
#include "Train.h"
#include "support/Error.h"
#include "support/InputFile.h"
#include "support/OutputFile.h"

#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>
#include <cmath>
#include <optional>

namespace mlgo {

namespace {

struct StepPoint {
  double Step;
  std::optional<double> Unperturbed, Low, High;
};

/// A number of the record; none if missing, or if it would not plot (a log may hold
/// anything, and 1e308 % is an infinity).
std::optional<double> numberAt(const Json &Record, const char *Key, double Scale = 1) {
  std::optional<double> Value = findJsonField<double>(Record, Key);
  if (Value && std::isfinite(*Value * Scale))
    return Value;
  return std::nullopt;
}

} // namespace

llvm::Expected<std::string> writeTrainReport(llvm::StringRef Directory) {
  std::string LogPath = Directory.str() + "/" + TrainLogFile;
  auto Buffer = readRegularFile(LogPath);
  if (!Buffer)
    return Buffer.takeError();
  std::vector<StepPoint> Points;
  llvm::SmallVector<llvm::StringRef> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n', -1, false);
  for (llvm::StringRef Line : Lines) {
    Json Record = Json::parse(Line.str(), nullptr, false);
    std::optional<double> Step = numberAt(Record, "step");
    if (!Step)
      return inputError(LogPath, "holds a line that is not a step record");
    Points.push_back({*Step, numberAt(Record, "unperturbed_speedup", 100),
                      numberAt(Record, "reward_min", 100),
                      numberAt(Record, "reward_max", 100)});
  }
  if (Points.empty())
    return inputError(LogPath, "holds no steps yet");

  // Axes: steps left to right, speedup in percent bottom to top, 0 always shown.
  double Low = 0, High = 0;
  for (const StepPoint &P : Points)
    for (const std::optional<double> &V : {P.Unperturbed, P.Low, P.High})
      if (V) {
        Low = std::min(Low, *V * 100);
        High = std::max(High, *V * 100);
      }
  if (High - Low < 1e-3) // a constant series, all 0 if none
    High = Low + 1e-3;
  double LastStep = 1;
  for (const StepPoint &P : Points)
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
  std::string Upper, Lower, Line;
  for (const StepPoint &P : Points) {
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
  if (!Upper.empty())
    Svg += fmt::format("<polygon points=\"{}{}\" fill=\"#9ecae1\" fill-opacity=\"0.5\">"
                       "<title>perturbations: lowest to highest</title></polygon>\n",
                       Upper, Lower);
  if (!Line.empty())
    Svg += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"#08519c\" "
                       "stroke-width=\"2\"><title>unperturbed policy</title></polyline>\n",
                       Line);
  Svg += "</svg>\n";
  std::string Path = Directory.str() + "/reward.svg";
  if (llvm::Error E = writeFileAtomically(Path, Svg))
    return E;
  return Path;
}

} // namespace mlgo
