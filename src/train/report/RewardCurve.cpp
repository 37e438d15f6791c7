/// \file
/// Drawing the reward curve.
#include "RewardCurve.h"
#include "support/Printable.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace mlgo {

namespace {

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

std::string rewardCurveSvg(const std::vector<StepPoint> &Points,
                           const std::vector<ValidationPoint> &Checked) {
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
  return Svg;
}

} // namespace mlgo
