#include "Units.h"
#include "stats/Statistics.h"

#include <cmath>
#include <limits>

namespace mlgo {

std::vector<double> roundSpeedups(const std::vector<Timed> &Round, size_t Contestants) {
  std::vector<double> Speedups(Contestants, std::numeric_limits<double>::quiet_NaN());
  for (size_t K = 1; K + 1 < Round.size(); K += 2) {
    double Before = Round[K - 1].Value, After = Round[K + 1].Value, Value = Round[K].Value;
    if (Round[K - 1].Build != 0 || Round[K + 1].Build != 0 || Value <= 0 || Before <= 0 ||
        After <= 0)
      continue;
    Speedups[Round[K].Build] = std::sqrt(Before * After) / Value - 1;
  }
  // Candidates over the control, called as they are: the baseline, between all the
  // others, runs a few tenths of a percent faster or slower than its own code called
  // as a candidate; the control's own speedup shows that bias.
  for (size_t B = 2; B < Contestants; ++B)
    Speedups[B] = (1 + Speedups[B]) / (1 + Speedups[1]) - 1;
  return Speedups;
}

const char *verdictName(Verdict V) {
  switch (V) {
  case Verdict::Faster:
    return "faster";
  case Verdict::Slower:
    return "slower";
  case Verdict::WithinNoise:
    break;
  }
  return "within noise";
}

BuildResult summarise(const Contestant &C, const std::vector<double> &Samples, bool Control) {
  BuildResult R;
  R.Name = C.Name;
  R.Path = C.Path;
  R.Control = Control;
  R.Samples = Samples.size();
  if (Samples.empty())
    return R;
  R.Speedup = stats::median(Samples);
  stats::Interval CI = stats::medianInterval(Samples);
  R.Low = CI.Low;
  R.High = CI.High;
  R.Judged = R.Low > 0 ? Verdict::Faster : R.High < 0 ? Verdict::Slower : Verdict::WithinNoise;
  return R;
}

} // namespace mlgo
