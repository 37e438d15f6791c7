#include "MeasureReport.h"

#include <fmt/format.h>

namespace mlgo {

const char *modeName(MeasureMode Mode) {
  switch (Mode) {
  case MeasureMode::Paired:
    return "paired";
  case MeasureMode::Processes:
    return "processes";
  case MeasureMode::Auto:
    break;
  }
  return "auto";
}

namespace {

std::string percent(double Fraction) { return fmt::format("{:+.2f}%", 100 * Fraction); }

std::string unitName(const Measurement &M) {
  return M.Mode == MeasureMode::Paired ? "processes" : "rounds";
}

std::string summaryLine(const Measurement &M) {
  std::string Line = M.PairedRefused.empty()
                         ? ""
                         : "paired mode refused (" + M.PairedRefused + "): ";
  std::string Cycles =
      M.BaselineCycles ? fmt::format(", {:.4g} cycles at {:.2f} GHz", *M.BaselineCycles,
                                     *M.ClockGHz)
                       : "";
  return Line + fmt::format("{} mode, {} {} in {:.0f} s; the baseline's median {:.4g} ({}{}); "
                            "{} (95% intervals {} {:.2g} points)",
                            modeName(M.Mode), M.Units, unitName(M), M.Seconds,
                            M.BaselineValue, M.Metric, Cycles,
                            M.PrecisionReached ? "precision reached"
                                               : "stopped by the time budget",
                            M.PrecisionReached ? "narrower than" : "not all narrower than",
                            M.Precision);
}

} // namespace

Json measurementJson(const Measurement &M) {
  Json Builds = Json::array();
  for (const BuildResult &B : M.Builds)
    Builds.push_back({{"name", B.Name},
                      {"path", B.Path},
                      {"control", B.Control},
                      {"speedup", B.Speedup},
                      {"low", B.Low},
                      {"high", B.High},
                      {"samples", B.Samples},
                      {"verdict", verdictName(B.Judged)}});
  return Json{{"mode", modeName(M.Mode)},
              {"paired_refused", M.PairedRefused.empty() ? Json() : Json(M.PairedRefused)},
              {"metric", M.Metric},
              {"baseline_value", M.BaselineValue},
              {"clock_ghz", M.ClockGHz ? Json(*M.ClockGHz) : Json()},
              {"baseline_cycles", M.BaselineCycles ? Json(*M.BaselineCycles) : Json()},
              {"units", M.Units},
              {"seconds", M.Seconds},
              {"precision_points", M.Precision},
              {"precision_reached", M.PrecisionReached},
              {"seed", M.Seed},
              {"builds", std::move(Builds)}};
}

std::string measurementText(const Measurement &M) {
  std::string Text = summaryLine(M) + "\n";
  Text += fmt::format("  {:20} {:>9}  {:>22}  {}\n", "build", "speedup", "95% interval",
                      "verdict");
  for (const BuildResult &B : M.Builds)
    Text += fmt::format("  {:20} {:>9}  {:>22}  {}{}\n", B.Name, percent(B.Speedup),
                        fmt::format("[{}, {}]", percent(B.Low), percent(B.High)),
                        verdictName(B.Judged),
                        B.Control && B.Judged != Verdict::WithinNoise
                            ? " (the baseline's own code: a bias the interval does not "
                              "show)"
                            : "");
  return Text;
}

std::string measurementMarkdown(const Measurement &M) {
  std::string Text = "### Native measurement\n\n" + summaryLine(M) + ".\n\n";
  Text += "| build | speedup | 95% interval | verdict |\n|---|---|---|---|\n";
  for (const BuildResult &B : M.Builds)
    Text += fmt::format("| {}{} | {} | [{}, {}] | {} |\n", B.Name,
                        B.Control ? " (control)" : "", percent(B.Speedup), percent(B.Low),
                        percent(B.High), verdictName(B.Judged));
  return Text;
}

std::vector<const BuildResult *> slowerThan(const Measurement &M, double Percent) {
  std::vector<const BuildResult *> Slower;
  for (const BuildResult &B : M.Builds)
    if (!B.Control && B.Samples > 0 && 100 * B.High < -Percent)
      Slower.push_back(&B);
  return Slower;
}

} // namespace mlgo
