/// \file
/// accuracy-stats: joins bench/accuracy's predicted speedups with what `mlgo-ra measure
/// --json` measured and reports how well the prediction ranks and sizes the variants:
/// per variant measure's speedup (the median, over its control in paired mode) and its
/// 95% interval; over all variants Spearman's rho, Kendall's tau-b, the sign agreement
/// on variants whose interval excludes 0 (above the noise) and the least-squares line
/// measured = slope * predicted + offset. Prints Markdown; --svg writes the scatter
/// plot (one point per variant, its interval, the diagonal, the fit).
///
/// Usage: accuracy-stats --variants VARIANTS.tsv --measured WORKLOAD=MEASURED.json...
///          [--svg PLOT.svg] [--modeled WORKLOAD=CYCLES... [--clock-ghz GHZ]]
///   with --modeled (every workload's: the engine's cycles of its baseline over the
///   trace of the run measure timed), the predictions are those of the whole run
///   (replay --native-cycles, replay/WholeRun.h): the native cycles are the first
///   measurement's baseline_cycles, or with --clock-ghz its baseline_value (CPU
///   seconds) at that clock for measurements from before measure timed the clock.
///        accuracy-stats --speedups-only --variants VARIANTS.tsv --measured ...
///   the measured speedups alone, one line per measured variant (bench/train-native):
///   "workload variant predicted measured low high samples", fractions.
/// VARIANTS.tsv: "workload variant status predicted note..." per line, status one of
///   variant (counted), control (the baseline's code compiled as the variants are:
///   shows the noise; not counted) or dropped (not measured; predicted "-"), predicted
///   a fraction.
/// MEASURED.json: measure's --json of WORKLOAD's builds, each variant a candidate named
///   as in VARIANTS.tsv; a workload's variants may be split over several files (measure
///   takes at most 22 candidates a call). A variant named control is measure's own
///   control (the baseline's code measured as a candidate: the baseline's bias).
#include "replay/WholeRun.h"
#include "stats/Statistics.h"

#include "support/Json.h"

#include "CLI/CLI.hpp"
#include "llvm/Support/Error.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace mlgo::stats;

namespace {

[[noreturn]] void fail(const std::string &Message) {
  std::fprintf(stderr, "accuracy-stats: error: %s\n", Message.c_str());
  std::exit(1);
}

struct Variant {
  std::string Workload, Name, Status, Note;
  double Predicted = 0;
  // Filled from measure's results: the median speedup and its 95% interval.
  double Measured = 0, Low = 0, High = 0;
  int Samples = 0;
  bool aboveNoise() const { return Low > 0 || High < 0; }
};

/// One of measure's results: how it measured, and its builds by name.
struct Measurement {
  std::string Workload, Path, Mode, Metric, Units;
  double BaselineValue = 0, Seconds = 0;
  std::optional<double> BaselineCycles; ///< measure's, where it timed the clock
  bool PrecisionReached = false;
  std::map<std::string, Variant> Builds; ///< Measured, Low, High, Samples filled
  const Variant *Control = nullptr;       ///< measure's own control, if it has one
};

template <typename T> T field(const mlgo::Json &Object, const char *Key,
                              const std::string &Path) {
  llvm::Expected<T> Value = mlgo::getJsonField<T>(Object, Key, Path);
  if (!Value)
    fail(llvm::toString(Value.takeError()));
  return *Value;
}

/// Reads "WORKLOAD=PATH", measure's --json output.
Measurement readMeasured(const std::string &Spec) {
  size_t Equals = Spec.find('=');
  if (Equals == std::string::npos || Equals == 0)
    fail(Spec + ": expected WORKLOAD=MEASURED.json");
  Measurement M;
  M.Workload = Spec.substr(0, Equals);
  M.Path = Spec.substr(Equals + 1);
  llvm::Expected<mlgo::Json> Root = mlgo::readJsonFile(M.Path);
  if (!Root)
    fail(llvm::toString(Root.takeError()));
  M.Mode = field<std::string>(*Root, "mode", M.Path);
  M.Metric = field<std::string>(*Root, "metric", M.Path);
  M.Units = std::to_string(field<long>(*Root, "units", M.Path));
  M.BaselineValue = field<double>(*Root, "baseline_value", M.Path);
  M.BaselineCycles = mlgo::findJsonField<double>(*Root, "baseline_cycles");
  M.Seconds = field<double>(*Root, "seconds", M.Path);
  M.PrecisionReached = field<bool>(*Root, "precision_reached", M.Path);
  auto Builds = field<std::vector<mlgo::Json>>(*Root, "builds", M.Path);
  for (const mlgo::Json &B : Builds) {
    Variant V;
    V.Workload = M.Workload;
    V.Name = field<std::string>(B, "name", M.Path);
    V.Measured = field<double>(B, "speedup", M.Path);
    V.Low = field<double>(B, "low", M.Path);
    V.High = field<double>(B, "high", M.Path);
    V.Samples = field<int>(B, "samples", M.Path);
    if (!M.Builds.emplace(V.Name, V).second)
      fail(M.Path + ": two builds named '" + V.Name + "'");
    if (field<bool>(B, "control", M.Path))
      M.Control = &M.Builds.at(V.Name);
  }
  return M;
}

/// "WORKLOAD=CYCLES" of --modeled.
std::pair<std::string, double> readModeled(const std::string &Spec) {
  size_t Equals = Spec.find('=');
  char *End = nullptr;
  double Cycles =
      Equals == std::string::npos ? 0 : std::strtod(Spec.c_str() + Equals + 1, &End);
  if (Equals == std::string::npos || Equals == 0 || !End || *End || !(Cycles > 0))
    fail(Spec + ": expected WORKLOAD=CYCLES, cycles above 0");
  return {Spec.substr(0, Equals), Cycles};
}

/// Makes every prediction of \p Variants the whole run's, from \p Modeled (the
/// engine's baseline cycles by workload) and the native cycles of \p Measured's first
/// measurement of each workload; prints the share the engine models of each.
void predictWholeRuns(std::vector<Variant> &Variants,
                      const std::map<std::string, double> &Modeled,
                      const std::vector<Measurement> &Measured, double ClockGHz,
                      FILE *Report) {
  std::map<std::string, mlgo::WholeRun> Runs;
  if (Report)
    std::fprintf(Report, "Predicted for the whole run (replay --native-cycles): the cycles "
                         "the engine does not model taken as the same for every variant.\n\n"
                         "| workload | predicted baseline cycles | native cycles | modeled "
                         "share |\n|---|---|---|---|\n");
  for (const Measurement &M : Measured) {
    if (Runs.count(M.Workload))
      continue;
    auto It = Modeled.find(M.Workload);
    if (It == Modeled.end())
      fail(M.Workload + ": no --modeled cycles");
    double Native = M.BaselineCycles ? *M.BaselineCycles : M.BaselineValue * ClockGHz * 1e9;
    if (!(Native > 0))
      fail(M.Path + ": no baseline_cycles (measure timed no clock): give --clock-ghz");
    Runs[M.Workload] = mlgo::WholeRun{Native};
    if (Report)
      std::fprintf(Report, "| %s | %.4g | %.4g%s | %.3f |\n", M.Workload.c_str(), It->second,
                   Native, M.BaselineCycles ? "" : " (at --clock-ghz)",
                   Runs[M.Workload].modeledShare(It->second));
  }
  if (Report)
    std::fprintf(Report, "\n");
  for (Variant &V : Variants) {
    if (V.Status == "dropped")
      continue;
    auto Run = Runs.find(V.Workload);
    if (Run == Runs.end())
      fail(V.Workload + ": not measured");
    double B = Modeled.at(V.Workload);
    V.Predicted = Run->second.speedup(B, B / (1 + V.Predicted));
  }
}

std::vector<Variant> readVariants(const std::string &Path) {
  std::ifstream In(Path);
  if (!In)
    fail(Path + ": cannot open");
  std::vector<Variant> Out;
  std::string Line;
  for (int Number = 1; std::getline(In, Line); ++Number) {
    if (Line.empty() || Line[0] == '#')
      continue;
    std::istringstream Fields(Line);
    Variant V;
    std::string Predicted;
    if (!std::getline(Fields, V.Workload, '\t') || !std::getline(Fields, V.Name, '\t') ||
        !std::getline(Fields, V.Status, '\t') || !std::getline(Fields, Predicted, '\t'))
      fail(Path + ":" + std::to_string(Number) + ": expected workload, variant, status, "
           "predicted");
    std::getline(Fields, V.Note);
    if (V.Status != "variant" && V.Status != "control" && V.Status != "dropped")
      fail(Path + ":" + std::to_string(Number) + ": unknown status '" + V.Status + "'");
    if (V.Status != "dropped") {
      char *End = nullptr;
      V.Predicted = std::strtod(Predicted.c_str(), &End);
      if (End == Predicted.c_str() || *End)
        fail(Path + ":" + std::to_string(Number) + ": bad predicted speedup '" + Predicted +
             "'");
    }
    Out.push_back(V);
  }
  return Out;
}

std::string percent(double Fraction, int Digits = 2) {
  char Buffer[32];
  std::snprintf(Buffer, sizeof Buffer, "%+.*f%%", Digits, 100 * Fraction);
  return Buffer;
}

int sign(double X) { return (X > 0) - (X < 0); }

// --- the plot ---

const char *const Colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                              "#9467bd", "#8c564b", "#e377c2", "#17becf"};

double niceStep(double Range) {
  double Raw = Range / 6, Power = std::pow(10, std::floor(std::log10(Raw)));
  for (double M : {1.0, 2.0, 5.0})
    if (M * Power >= Raw)
      return M * Power;
  return 10 * Power;
}

std::string escape(const std::string &S) {
  std::string Out;
  for (char C : S)
    Out += C == '<' ? "&lt;" : C == '>' ? "&gt;" : C == '&' ? "&amp;" : std::string(1, C);
  return Out;
}

void writeSvg(const std::string &Path, const std::vector<const Variant *> &Points,
              const std::vector<std::string> &Workloads, const LinearFit &Fit,
              const std::string &Title) {
  double Lo = 0, Hi = 0;
  for (const Variant *V : Points)
    for (double X : {V->Predicted, V->Low, V->High})
      Lo = std::min(Lo, 100 * X), Hi = std::max(Hi, 100 * X);
  double Pad = std::max((Hi - Lo) * 0.05, 0.1);
  Lo -= Pad, Hi += Pad;
  const double Left = 80, Top = 50, Size = 480;
  auto PX = [&](double X) { return Left + (X - Lo) / (Hi - Lo) * Size; };
  auto PY = [&](double Y) { return Top + Size - (Y - Lo) / (Hi - Lo) * Size; };

  std::ofstream Out(Path);
  if (!Out)
    fail(Path + ": cannot write");
  char B[512];
  Out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"760\" height=\"600\" "
         "font-family=\"sans-serif\" font-size=\"12\">\n"
         "<rect width=\"760\" height=\"600\" fill=\"white\"/>\n";
  Out << "<text x=\"380\" y=\"24\" text-anchor=\"middle\" font-size=\"14\">" << escape(Title)
      << "</text>\n";
  std::snprintf(B, sizeof B,
                "<defs><clipPath id=\"plot\"><rect x=\"%g\" y=\"%g\" width=\"%g\" "
                "height=\"%g\"/></clipPath></defs>\n",
                Left, Top, Size, Size);
  Out << B;
  double Step = niceStep(Hi - Lo);
  for (double T = std::ceil(Lo / Step) * Step; T <= Hi; T += Step) {
    double V = std::fabs(T) < Step / 1e6 ? 0 : T;
    std::snprintf(B, sizeof B,
                  "<line x1=\"%.1f\" y1=\"%g\" x2=\"%.1f\" y2=\"%g\" stroke=\"#eee\"/>"
                  "<line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\" stroke=\"#eee\"/>\n"
                  "<text x=\"%.1f\" y=\"%g\" text-anchor=\"middle\">%g</text>"
                  "<text x=\"%g\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
                  PX(V), Top, PX(V), Top + Size, Left, PY(V), Left + Size, PY(V), PX(V),
                  Top + Size + 16, V, Left - 6, PY(V) + 4, V);
    Out << B;
  }
  std::snprintf(B, sizeof B,
                "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"none\" "
                "stroke=\"#333\"/>\n"
                "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">predicted speedup (%%)</text>\n"
                "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\" transform=\"rotate(-90 %g %g)\">"
                "measured speedup (%%)</text>\n",
                Left, Top, Size, Size, Left + Size / 2, Top + Size + 40, Left - 50,
                Top + Size / 2, Left - 50, Top + Size / 2);
  Out << B;
  Out << "<g clip-path=\"url(#plot)\">\n";
  std::snprintf(B, sizeof B,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\"/>\n"
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#555\" "
                "stroke-dasharray=\"6 4\"/>\n",
                PX(Lo), PY(Lo), PX(Hi), PY(Hi), PX(Lo), PY(Fit.Slope * Lo + 100 * Fit.Offset),
                PX(Hi), PY(Fit.Slope * Hi + 100 * Fit.Offset));
  Out << B;
  for (const Variant *V : Points) {
    size_t C = size_t(std::find(Workloads.begin(), Workloads.end(), V->Workload) -
                      Workloads.begin()) % (sizeof Colors / sizeof *Colors);
    double X = PX(100 * V->Predicted);
    std::snprintf(B, sizeof B,
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                  "stroke-opacity=\"0.6\"/>\n<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" "
                  "fill=\"%s\"><title>%s %s: predicted %s, measured %s</title></circle>\n",
                  X, PY(100 * V->Low), X, PY(100 * V->High), Colors[C], X,
                  PY(100 * V->Measured), Colors[C], escape(V->Workload).c_str(),
                  escape(V->Name).c_str(), percent(V->Predicted).c_str(),
                  percent(V->Measured).c_str());
    Out << B;
  }
  Out << "</g>\n";
  double LegendY = Top + 10;
  for (size_t I = 0; I < Workloads.size(); ++I, LegendY += 18) {
    std::snprintf(B, sizeof B,
                  "<circle cx=\"%g\" cy=\"%g\" r=\"4\" fill=\"%s\"/>"
                  "<text x=\"%g\" y=\"%g\">%s</text>\n",
                  Left + Size + 24, LegendY, Colors[I % (sizeof Colors / sizeof *Colors)],
                  Left + Size + 34, LegendY + 4, escape(Workloads[I]).c_str());
    Out << B;
  }
  std::snprintf(B, sizeof B,
                "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"#999\"/>"
                "<text x=\"%g\" y=\"%g\">measured = predicted</text>\n"
                "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"#555\" "
                "stroke-dasharray=\"6 4\"/><text x=\"%g\" y=\"%g\">least squares</text>\n"
                "<text x=\"%g\" y=\"%g\">bars: %s</text>\n"
                "<text x=\"%g\" y=\"%g\">%s</text>\n",
                Left + Size + 16, LegendY + 10, Left + Size + 32, LegendY + 10,
                Left + Size + 36, LegendY + 14, Left + Size + 16, LegendY + 28,
                Left + Size + 32, LegendY + 28, Left + Size + 36, LegendY + 32,
                Left + Size + 16, LegendY + 52,
                "the median's 95%", Left + Size + 16, LegendY + 66, "confidence interval");
  Out << B << "</svg>\n";
  if (!Out)
    fail(Path + ": cannot write");
}

} // namespace

int main(int Argc, char **Argv) {
  std::string VariantsPath, SvgPath;
  bool SpeedupsOnly = false;
  std::vector<std::string> MeasuredSpecs, ModeledSpecs;
  double ClockGHz = 0;
  CLI::App App("Ranks and sizes predicted speedups against measured ones",
               "accuracy-stats");
  App.add_option("--variants", VariantsPath, "bench/accuracy's variants.tsv")->required();
  App.add_option("--measured", MeasuredSpecs,
                 "WORKLOAD=MEASURED.json: mlgo-ra measure --json of the workload's variants")
      ->required();
  App.add_option("--svg", SvgPath, "Where to draw the scatter plot");
  App.add_flag("--speedups-only", SpeedupsOnly,
               "Print only each variant's measured speedup and interval (TSV)");
  App.add_option("--modeled", ModeledSpecs,
                 "WORKLOAD=CYCLES: the engine's cycles of the workload's baseline, over the "
                 "trace of the run measure timed; given, the predictions are the whole run's");
  App.add_option("--clock-ghz", ClockGHz,
                 "With --modeled: the clock at which a measurement without baseline_cycles "
                 "ran its baseline_value of CPU seconds");
  CLI11_PARSE(App, Argc, Argv);

  std::vector<Variant> Variants = readVariants(VariantsPath);
  std::vector<Measurement> Measured;
  for (const std::string &Spec : MeasuredSpecs)
    Measured.push_back(readMeasured(Spec));
  std::set<std::string> Modes; // for the plot's title
  for (const Measurement &M : Measured)
    Modes.insert(M.Mode + " mode");

  std::vector<std::string> Workloads;
  for (const Variant &V : Variants)
    if (std::find(Workloads.begin(), Workloads.end(), V.Workload) == Workloads.end())
      Workloads.push_back(V.Workload);

  // The report's tables, or with --speedups-only nothing until the speedups.
  FILE *Report = SpeedupsOnly ? nullptr : stdout;
  auto Say = [&](const char *Format, auto... Values) {
    if (Report)
      std::fprintf(Report, Format, Values...);
  };
  if (!ModeledSpecs.empty()) {
    std::map<std::string, double> Modeled;
    for (const std::string &Spec : ModeledSpecs)
      Modeled.insert(readModeled(Spec));
    predictWholeRuns(Variants, Modeled, Measured, ClockGHz, Report);
  }
  Say("%s", "Measured speedup: mlgo-ra measure's median of baseline/variant - 1 (in paired "
            "mode over its control, the baseline's code called as the variants are), [low, "
            "high] its 95% confidence interval; above noise when that interval excludes "
            "0.\n\n");
  Say("%s", "| workload | measurement | mode, metric | units | seconds | baseline median | "
            "precision reached | measure's control [interval] |\n"
            "|---|---|---|---|---|---|---|---|\n");
  for (const Measurement &M : Measured)
    Say("| %s | %s | %s mode, %s | %s | %.0f | %.4g | %s | %s |\n", M.Workload.c_str(),
        M.Path.substr(M.Path.rfind('/') + 1).c_str(), M.Mode.c_str(), M.Metric.c_str(), M.Units.c_str(), M.Seconds,
        M.BaselineValue, M.PrecisionReached ? "yes" : "no",
        M.Control ? (percent(M.Control->Measured) + " [" + percent(M.Control->Low) + ", " +
                     percent(M.Control->High) + "]")
                        .c_str()
                  : "-");

  for (Variant &V : Variants) {
    if (V.Status == "dropped")
      continue;
    const Variant *Of = nullptr;
    for (const Measurement &M : Measured) {
      auto It = M.Builds.find(V.Name);
      if (M.Workload != V.Workload || It == M.Builds.end())
        continue;
      if (Of)
        fail(V.Workload + " " + V.Name + ": measured twice");
      Of = &It->second;
    }
    if (!Of)
      fail(V.Workload + " " + V.Name + ": not measured");
    V.Measured = Of->Measured, V.Low = Of->Low, V.High = Of->High, V.Samples = Of->Samples;
  }
  if (SpeedupsOnly) {
    for (const Variant &V : Variants)
      if (V.Status != "dropped")
        std::printf("%s\t%s\t%.6f\t%.6f\t%.6f\t%.6f\t%d\n", V.Workload.c_str(),
                    V.Name.c_str(), V.Predicted, V.Measured, V.Low, V.High, V.Samples);
    return 0;
  }

  std::printf("\n| workload | variant | predicted | measured | %s | above noise | "
              "same sign |\n|---|---|---|---|---|---|---|\n",
              "95% interval of the median");
  std::vector<const Variant *> Counted;
  int AboveNoise = 0, Agree = 0;
  for (const Variant &V : Variants) {
    if (V.Status == "dropped") {
      std::printf("| %s | %s | dropped | | | | %s |\n", V.Workload.c_str(), V.Name.c_str(),
                  V.Note.c_str());
      continue;
    }
    bool Control = V.Status == "control";
    const char *Same = "";
    if (!Control && V.aboveNoise())
      Same = sign(V.Predicted) == sign(V.Measured) ? "yes" : "**no**";
    std::printf("| %s | %s%s | %s | %s | [%s, %s] | %s | %s |\n", V.Workload.c_str(),
                V.Name.c_str(), Control ? " (control)" : "", percent(V.Predicted, 3).c_str(),
                percent(V.Measured).c_str(), percent(V.Low).c_str(), percent(V.High).c_str(),
                V.aboveNoise() ? "yes" : "no", Same);
    if (Control)
      continue;
    Counted.push_back(&V);
    if (V.aboveNoise()) {
      ++AboveNoise;
      Agree += sign(V.Predicted) == sign(V.Measured);
    }
  }
  if (Counted.size() < 3)
    fail("fewer than 3 variants measured");

  auto Correlations = [](const std::vector<const Variant *> &Set, double &Rho, double &Tau) {
    std::vector<double> P, M;
    for (const Variant *V : Set)
      P.push_back(V->Predicted), M.push_back(V->Measured);
    Rho = spearman(P, M);
    Tau = kendallTauB(P, M);
  };
  double Rho, Tau;
  Correlations(Counted, Rho, Tau);
  std::vector<double> P, M;
  for (const Variant *V : Counted)
    P.push_back(100 * V->Predicted), M.push_back(100 * V->Measured);
  LinearFit Fit = leastSquares(P, M);
  Fit.Offset /= 100; // back to a fraction

  std::printf("\n%zu variants of %zu workloads: Spearman %.3f, Kendall tau-b %.3f; sign "
              "agreement %d of %d above noise; least squares measured = %.3f x predicted "
              "%s (R^2 %.3f)\n",
              Counted.size(), Workloads.size(), Rho, Tau, Agree, AboveNoise, Fit.Slope,
              percent(Fit.Offset).c_str(), Fit.R2);
  std::vector<const Variant *> Above;
  for (const Variant *V : Counted)
    if (V->aboveNoise())
      Above.push_back(V);
  if (Above.size() >= 3) {
    double ARho, ATau;
    Correlations(Above, ARho, ATau);
    std::printf("Over the %zu variants above noise: Spearman %.3f, Kendall tau-b %.3f\n",
                Above.size(), ARho, ATau);
  }
  int Dropped = 0, Duplicates = 0;
  for (const Variant &V : Variants)
    if (V.Status == "dropped")
      ++Dropped, Duplicates += V.Note.rfind("same code as ", 0) == 0;
  std::printf("Dropped: %d (%d with the same code as the baseline or another variant, %d for "
              "other reasons, listed above)\n",
              Dropped, Duplicates, Dropped - Duplicates);
  std::printf("\n| workload | variants | dropped | Spearman | Kendall tau-b | sign agreement |\n"
              "|---|---|---|---|---|---|\n");
  for (const std::string &W : Workloads) {
    std::vector<const Variant *> Set;
    int WAbove = 0, WAgree = 0;
    for (const Variant *V : Counted)
      if (V->Workload == W) {
        Set.push_back(V);
        if (V->aboveNoise())
          ++WAbove, WAgree += sign(V->Predicted) == sign(V->Measured);
      }
    int WDropped = 0;
    for (const Variant &V : Variants)
      WDropped += V.Workload == W && V.Status == "dropped";
    double WRho = 0, WTau = 0;
    Correlations(Set, WRho, WTau);
    std::printf("| %s | %zu | %d | %.3f | %.3f | %d of %d |\n", W.c_str(), Set.size(), WDropped,
                WRho, WTau, WAgree, WAbove);
  }
  if (!SvgPath.empty()) {
    char Title[160];
    std::snprintf(Title, sizeof Title,
                  "%zu variants: Spearman %.2f, Kendall %.2f, fit %.2fx %s (%s)",
                  Counted.size(), Rho, Tau, Fit.Slope, percent(Fit.Offset, 1).c_str(),
                  Modes.size() == 1 ? Modes.begin()->c_str() : "mixed modes");
    writeSvg(SvgPath, Counted, Workloads, Fit, Title);
  }
  return 0;
}
