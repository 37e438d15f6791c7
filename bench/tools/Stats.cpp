/// \file
/// accuracy-stats: joins bench/accuracy's predicted speedups with accuracy-measure's
/// runs and reports how well the prediction ranks and sizes the variants: per variant
/// the measured speedup (median over rounds of baseline/variant - 1, the baseline being
/// the mean of the two baseline runs beside the variant's; paired, in several processes,
/// the median of the processes' medians) and its interval: the
/// interquartile range of the rounds, or for bench/measure-paired's metric "paired"
/// (thousands of short rounds) the 95% confidence interval of the median of its
/// processes' medians; over all
/// variants Spearman's rho, Kendall's tau-b, the sign agreement on variants whose
/// interval excludes 0 (above the noise) and the least-squares line
/// measured = slope * predicted + offset. Prints Markdown; --svg writes the scatter
/// plot (one point per variant, its interval, the diagonal, the fit).
///
/// Usage: accuracy-stats --variants VARIANTS.tsv --runs RUNS.tsv... [--svg PLOT.svg]
///        accuracy-stats --speedups-only --variants VARIANTS.tsv --runs RUNS.tsv...
///          [--against NAME]
///   the measured speedups alone, one line per measured variant (bench/train-native):
///   "workload variant predicted measured low high rounds", fractions. With --against
///   (paired runs), each other variant's speedup is over NAME, a second copy of the
///   baseline's code called as the variants are, not over the baseline: the baseline,
///   called between all the others, runs up to a few tenths of a percent slower or
///   faster than its own code called as a variant (docs/results/measure-paired.md). Per round, each
///   build's speed is the geometric mean of its two neighbouring baseline calls over its
///   own; the variant's speedup over NAME is the ratio of the two. NAME's own line is
///   still over the baseline: that bias.
/// VARIANTS.tsv: "workload variant status predicted note..." per line, status one of
///   variant (counted), control (the baseline's own code: shows the noise; not
///   counted) or dropped (not measured; predicted "-"), predicted a fraction.
/// RUNS.tsv: accuracy-measure's or bench/measure-paired's output; the baseline is the
///   program named "baseline".
#include "Statistics.h"

#include "CLI/CLI.hpp"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace mlgo::accuracy;

namespace {

[[noreturn]] void fail(const std::string &Message) {
  std::fprintf(stderr, "accuracy-stats: error: %s\n", Message.c_str());
  std::exit(1);
}

struct Variant {
  std::string Workload, Name, Status, Note;
  double Predicted = 0;
  // Filled from the runs:
  std::vector<double> Speedups;
  double Measured = 0;
  /// The interquartile range of the rounds, or with the paired metric (thousands of
  /// short rounds) the median's 95% confidence interval.
  double Low = 0, High = 0;
  bool aboveNoise() const { return Low > 0 || High < 0; }
};

/// One workload's runs: per round, the programs in the order they ran.
struct RoundRuns {
  std::map<size_t, std::pair<std::string, double>> BySequence;
  int Process = 0; ///< bench/measure-paired's process that ran the round ("# process K")
};
/// A round of one runs file: files of the same workload (repeated runs of
/// bench/measure-paired) number their rounds alike.
struct RoundKey {
  int File = 0, Round = 0;
  bool operator<(const RoundKey &O) const {
    return File != O.File ? File < O.File : Round < O.Round;
  }
};
/// workload -> round -> runs
using RunTable = std::map<std::string, std::map<RoundKey, RoundRuns>>;

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

void readRuns(const std::string &Path, RunTable &Runs, std::set<std::string> &Metrics) {
  std::ifstream In(Path);
  if (!In)
    fail(Path + ": cannot open");
  std::string Line;
  static int Processes = 0; // numbered across files, so that no two files share one
  static int Files = 0;
  int File = ++Files, Process = 0;
  for (int Number = 1; std::getline(In, Line); ++Number) {
    if (Line.rfind("# metric: ", 0) == 0) {
      Metrics.insert(Line.substr(10));
      continue;
    }
    if (Line.rfind("# process ", 0) == 0) {
      Process = ++Processes;
      continue;
    }
    if (Line.empty() || Line[0] == '#')
      continue;
    std::istringstream Fields(Line);
    std::string Workload, Name;
    int Round = 0;
    size_t Sequence = 0;
    double Value = 0;
    if (!(Fields >> Workload >> Round >> Sequence >> Name >> Value) || Value <= 0)
      fail(Path + ":" + std::to_string(Number) +
           ": expected workload, round, sequence, name, value");
    RoundRuns &Of = Runs[Workload][RoundKey{File, Round}];
    Of.BySequence[Sequence] = {Name, Value};
    Of.Process = Process;
  }
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
              const std::string &Title, bool Paired) {
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
                Paired ? "the median's 95%" : "interquartile", Left + Size + 16, LegendY + 66,
                Paired ? "confidence interval" : "range over rounds");
  Out << B << "</svg>\n";
  if (!Out)
    fail(Path + ": cannot write");
}

} // namespace

int main(int Argc, char **Argv) {
  std::string VariantsPath, SvgPath;
  bool SpeedupsOnly = false;
  std::vector<std::string> RunPaths;
  CLI::App App("Ranks and sizes predicted speedups against measured ones",
               "accuracy-stats");
  App.add_option("--variants", VariantsPath, "bench/accuracy's variants.tsv")->required();
  App.add_option("--runs", RunPaths, "accuracy-measure's runs")->required();
  App.add_option("--svg", SvgPath, "Where to draw the scatter plot");
  App.add_flag("--speedups-only", SpeedupsOnly,
               "Print only each variant's measured speedup and quartiles (TSV)");
  std::string Against;
  App.add_option("--against", Against,
                 "Paired runs: the variant (a copy of the baseline's code) the others' "
                 "speedups are over, round by round, instead of the baseline");
  CLI11_PARSE(App, Argc, Argv);

  std::vector<Variant> Variants = readVariants(VariantsPath);
  RunTable Runs;
  std::set<std::string> Metrics;
  for (const std::string &Path : RunPaths)
    readRuns(Path, Runs, Metrics);
  if (Metrics.size() != 1)
    fail("the runs must all use one metric (found " + std::to_string(Metrics.size()) + ")");
  std::string Metric = *Metrics.begin();
  if (!Against.empty() && Metric != "paired")
    fail("--against takes paired runs (bench/measure-paired), not the metric " + Metric);

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
  bool Paired = Metric == "paired";
  Say("Metric: %s. Measured speedup: the median over %s of baseline/variant - 1, "
      "%s; %s; above noise when that range excludes 0.\n\n",
      Metric == "cycles"       ? "user-mode CPU cycles (hardware counter)"
      : Metric == "task-clock" ? "CPU time, user and kernel (perf task-clock)"
      : Metric == "reported"   ? "the seconds each program reports itself"
      : Paired ? "the CPU seconds of each build's main, called in turn in one process "
                 "(bench/measure-paired)"
               : "CPU time, user and system (wait4 rusage)",
      Paired ? "the processes of the median over their rounds" : "rounds",
      Paired ? "the baseline each of the calls just before and after the variant's"
             : "the baseline the mean of the runs just before and after the variant's",
      Paired ? "[low, high] the 95% confidence interval of the median of the processes' "
               "medians"
             : "[Q1, Q3] its interquartile range");
  if (!Against.empty())
    Say("Over %s: each variant's speed (the geometric mean of its two neighbouring "
        "baseline calls over its own) over %s's in the same round, %s itself over the "
        "baseline.\n\n",
        Against.c_str(), Against.c_str(), Against.c_str());
  Say("%s", "| workload | rounds | baseline median | baseline IQR |\n|---|---|---|---|\n");
  // workload -> variant -> its speedups over the baseline runs beside it
  std::map<std::string, std::map<std::string, std::vector<double>>> BesideBaseline;
  // workload -> variant -> process -> the same speedups, by the process that ran them
  std::map<std::string, std::map<std::string, std::map<int, std::vector<double>>>> ByProcess;
  for (const std::string &W : Workloads) {
    std::vector<double> Base;
    for (auto &[Key, R] : Runs[W]) {
      std::string Round = std::to_string(Key.Round);
      std::vector<std::pair<std::string, double>> Order;
      for (auto &[Sequence, Run] : R.BySequence)
        Order.push_back(Run);
      std::map<std::string, double> Speed; // --against: each build's, this round
      for (size_t I = 0; I < Order.size(); ++I) {
        if (Order[I].first == "baseline") {
          Base.push_back(Order[I].second);
          continue;
        }
        if (I == 0 || I + 1 == Order.size() || Order[I - 1].first != "baseline" ||
            Order[I + 1].first != "baseline")
          fail(W + ": round " + Round + ": " + Order[I].first +
               " ran without a baseline run on either side");
        // --against: both builds' speeds taken alike, so that what the mean of two
        // neighbours does (below) cancels in their ratio, computed once the round is read.
        if (!Against.empty())
          Speed[Order[I].first] =
              std::sqrt(Order[I - 1].second * Order[I + 1].second) / Order[I].second;
        if (!Against.empty() && Order[I].first != Against)
          continue;
        // Paired, each neighbour on its own: calls of 5 ms have a long right tail
        // (interrupts), and the mean of two has a higher median than one call, which
        // made a build measured against its own code look 0.1-0.4% faster.
        std::vector<double> Speedups;
        if (Paired)
          Speedups = {Order[I - 1].second / Order[I].second - 1,
                      Order[I + 1].second / Order[I].second - 1};
        else
          Speedups = {(Order[I - 1].second + Order[I + 1].second) / 2 / Order[I].second - 1};
        for (double Speedup : Speedups) {
          BesideBaseline[W][Order[I].first].push_back(Speedup);
          ByProcess[W][Order[I].first][R.Process].push_back(Speedup);
        }
      }
      if (Against.empty())
        continue;
      auto Reference = Speed.find(Against);
      if (Reference == Speed.end())
        fail(W + ": round " + Round + ": no run of " + Against +
             " (--against)");
      for (auto &[Name, Of] : Speed)
        if (Name != Against) {
          BesideBaseline[W][Name].push_back(Of / Reference->second - 1);
          ByProcess[W][Name][R.Process].push_back(Of / Reference->second - 1);
        }
    }
    if (Base.empty())
      fail(W + ": no runs of the baseline");
    double Median = median(Base);
    Say("| %s | %zu | %.4g %s | %.2f%% |\n", W.c_str(), Runs[W].size(), Median,
        Metric == "cycles" ? "cycles" : "s",
        100 * (quantile(Base, 0.75) - quantile(Base, 0.25)) / Median);
  }

  for (Variant &V : Variants) {
    if (V.Status == "dropped")
      continue;
    V.Speedups = BesideBaseline[V.Workload][V.Name];
    if (V.Speedups.empty())
      fail(V.Workload + " " + V.Name + ": no runs");
    V.Measured = median(V.Speedups);
    if (Paired) {
      // Rounds of one process share its address-space layout, which moves a build's
      // speed by tenths of a percent (4K aliasing of stack and data, for one): with
      // several processes, the interval is the one of their medians.
      const auto &Processes = ByProcess[V.Workload][V.Name];
      std::vector<double> Medians;
      for (const auto &[Process, Speedups] : Processes)
        Medians.push_back(median(Speedups));
      Interval Of = medianInterval(Medians.size() > 1 ? Medians : V.Speedups);
      V.Low = Of.Low, V.High = Of.High;
      if (Medians.size() > 1) // the estimate the interval is about
        V.Measured = median(Medians);
    } else {
      V.Low = quantile(V.Speedups, 0.25);
      V.High = quantile(V.Speedups, 0.75);
    }
  }
  if (SpeedupsOnly) {
    for (const Variant &V : Variants)
      if (V.Status != "dropped")
        std::printf("%s\t%s\t%.6f\t%.6f\t%.6f\t%.6f\t%zu\n", V.Workload.c_str(),
                    V.Name.c_str(), V.Predicted, V.Measured, V.Low, V.High, V.Speedups.size());
    return 0;
  }

  std::printf("\n| workload | variant | predicted | measured | %s | above noise | "
              "same sign |\n|---|---|---|---|---|---|---|\n",
              Paired ? "95% interval of the median" : "[Q1, Q3]");
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
  // What the measurement itself allows: the rounds split in two halves (odd and even)
  // rank the variants alike only as far as the noise lets them. Spearman-Brown turns
  // that into the reliability of all rounds, whose square root bounds the Spearman a
  // perfect prediction could reach against these measurements.
  {
    std::vector<double> Odd, Even;
    for (const Variant *V : Counted) {
      std::vector<double> Halves[2];
      for (size_t I = 0; I < V->Speedups.size(); ++I)
        // by round: paired, two speedups a round unless --against
        Halves[(Paired && Against.empty() ? I / 2 : I) % 2].push_back(V->Speedups[I]);
      if (Halves[1].empty())
        continue;
      Odd.push_back(median(Halves[0]));
      Even.push_back(median(Halves[1]));
    }
    if (Odd.size() >= 3) {
      double Split = spearman(Odd, Even);
      double Reliability = Split > 0 ? 2 * Split / (1 + Split) : 0;
      std::printf("The measurement's own ranking: odd against even rounds Spearman %.3f; a "
                  "perfect prediction would reach about %.3f against all rounds\n",
                  Split, std::sqrt(Reliability));
    }
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
                  Metric.c_str());
    writeSvg(SvgPath, Counted, Workloads, Fit, Title, Paired);
  }
  return 0;
}
