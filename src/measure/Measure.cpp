#include "Measure.h"
#include "Units.h"
#include "calibrate/Clock.h"
#include "stats/Statistics.h"
#include "support/Error.h"
#include "support/Stopwatch.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <set>

namespace mlgo {
namespace {

/// Units before the precision may stop the measurement: fewer give no 95% interval
/// narrower than their whole range.
constexpr unsigned MinUnits = 10;
/// The clock is timed after each unit on this many iterations of its chain: 15 ms at
/// 4 GHz, a few hundredths of a unit.
constexpr uint64_t ClockIterations = 10'000'000;
/// The harness takes 24 builds: the baseline, the control and 22 candidates.
constexpr size_t MaxCandidates = 22;

/// A scratch directory, removed with everything in it.
struct Scratch {
  std::string Path;
  ~Scratch() {
    if (!Path.empty())
      llvm::sys::fs::remove_directories(Path);
  }
};

llvm::Expected<Contestant> contestant(const BuildSpec &Spec) {
  llvm::SmallString<256> Path(Spec.Path);
  if (std::error_code EC = llvm::sys::fs::make_absolute(Path))
    return inputError(Spec.Path, "{}", EC.message());
  llvm::sys::path::remove_dots(Path, true);
  Contestant C{Spec.Name, Path.str().str(), false};
  llvm::sys::fs::file_status Status;
  if (std::error_code EC = llvm::sys::fs::status(Path, Status))
    return inputError(Spec.Path, "{}", EC.message());
  C.Directory = llvm::sys::fs::is_directory(Status);
  if (!C.Directory && !llvm::sys::fs::can_execute(Path))
    return inputError(Spec.Path, "is neither a directory of objects nor an executable");
  return C;
}

llvm::Expected<std::vector<Contestant>> contestants(const MeasureOptions &Opts) {
  if (Opts.Candidates.size() > MaxCandidates)
    return inputError("--candidate", "{} builds; measure takes at most {}",
                      Opts.Candidates.size(), MaxCandidates);
  std::vector<BuildSpec> Specs = {{"baseline", Opts.Baseline.Path},
                                  {"control", Opts.Baseline.Path}};
  std::set<std::string> Names = {"baseline", "control"};
  for (const BuildSpec &S : Opts.Candidates) {
    if (S.Name.empty() || !Names.insert(S.Name).second)
      return inputError(S.Path, "the name '{}' is taken: name it (NAME=BUILD)", S.Name);
    Specs.push_back(S);
  }
  std::vector<Contestant> Result;
  for (const BuildSpec &S : Specs) {
    auto C = contestant(S);
    if (!C)
      return C.takeError();
    Result.push_back(std::move(*C));
  }
  return Result;
}

llvm::Expected<MeasureMode> chooseMode(const MeasureOptions &Opts,
                                       const std::vector<Contestant> &Contestants) {
  const Contestant *Executable = nullptr;
  bool AnyDirectory = false;
  for (const Contestant &C : Contestants) {
    if (!C.Directory && !Executable)
      Executable = &C;
    AnyDirectory |= C.Directory;
  }
  if (AnyDirectory && Opts.Link.empty())
    return inputError("--link", "is needed to link a build directory's objects");
  if (Opts.Mode == MeasureMode::Paired) {
    if (Executable)
      return inputError(Executable->Path, "is an executable: paired mode needs each build's "
                                          "objects (a directory) and --link");
    if (!Opts.Metric.empty())
      return inputError("--metric", "applies to processes mode (paired mode times calls)");
  }
  if (Opts.Mode != MeasureMode::Auto)
    return Opts.Mode;
  return Executable || !Opts.Metric.empty() ? MeasureMode::Processes : MeasureMode::Paired;
}

/// The units of \p Mode, checked: every build run once, its output compared with the
/// baseline's unless the options say not to.
llvm::Expected<std::unique_ptr<Units>> checkedUnits(const MeasureOptions &Opts,
                                                    const std::vector<Contestant> &Contestants,
                                                    MeasureMode Mode, const std::string &Scratch,
                                                    std::mt19937_64 &Random) {
  // Paired processes of a 40th of the budget: ten at least fit in a quarter of it.
  double SecondsPerProcess = std::clamp(Opts.TimeBudget / 40, 0.2, 3.0);
  auto Made = Mode == MeasureMode::Paired
                  ? pairedUnits(Opts, Contestants, Scratch, SecondsPerProcess, Random)
                  : processesUnits(Opts, Contestants, Scratch, Random);
  if (!Made)
    return Made.takeError();
  if (llvm::Error E = (*Made)->check(Opts.CheckOutput))
    return E;
  return Made;
}

} // namespace

llvm::Expected<Measurement> measure(const MeasureOptions &Opts) {
  auto Start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return secondsSince(Start); };
  if (!(Opts.Precision > 0))
    return inputError("--precision", "must be a positive number of points");
  if (!(Opts.TimeBudget > 0))
    return inputError("--time-budget", "must be a positive number of seconds");
  if (Opts.CodeShift < 16 || Opts.CodeShift > 4096 ||
      (Opts.CodeShift & (Opts.CodeShift - 1)) != 0)
    return inputError("--code-shift", "{}: must be a power of two from 16 to 4096",
                      Opts.CodeShift);
  if (!Opts.Stdin.empty() && !llvm::sys::fs::is_regular_file(Opts.Stdin))
    return inputError(Opts.Stdin, "no such file (--stdin)");
  auto Contestants = contestants(Opts);
  if (!Contestants)
    return Contestants.takeError();
  auto Mode = chooseMode(Opts, *Contestants);
  if (!Mode)
    return Mode.takeError();

  Measurement M;
  M.Mode = *Mode;
  M.Precision = Opts.Precision;
  M.Seed = Opts.Seed ? Opts.Seed
                     : static_cast<uint64_t>(
                           std::chrono::steady_clock::now().time_since_epoch().count());
  std::mt19937_64 Random(M.Seed);
  Scratch Dir;
  llvm::SmallString<128> Created;
  if (std::error_code EC = llvm::sys::fs::createUniqueDirectory("mlgo-ra-measure", Created))
    return stageError("cannot create a scratch directory: {}", EC.message());
  Dir.Path = Created.str().str();

  auto Made = checkedUnits(Opts, *Contestants, M.Mode, Dir.Path, Random);
  if (!Made && Opts.Mode == MeasureMode::Auto && M.Mode == MeasureMode::Paired) {
    llvm::Error E = llvm::handleErrors(Made.takeError(), [&](const PairedRefusal &R) {
      M.PairedRefused = R.input() + ": " + R.what();
    });
    if (E)
      return E;
    M.Mode = MeasureMode::Processes;
    Made = checkedUnits(Opts, *Contestants, M.Mode, Dir.Path, Random);
  }
  if (!Made)
    return Made.takeError();
  Units &U = **Made;
  M.Metric = U.metric();

  std::vector<std::vector<double>> Samples(Contestants->size());
  std::vector<double> Baseline, Clocks;
  auto results = [&] {
    M.Builds.clear();
    for (size_t B = 1; B < Contestants->size(); ++B)
      M.Builds.push_back(summarise((*Contestants)[B], Samples[B], B == 1));
  };
  for (unsigned Unit = 0;; ++Unit) {
    auto Sample = U.run(Unit);
    if (!Sample)
      return Sample.takeError();
    for (size_t B = 1; B < Contestants->size(); ++B)
      if (!std::isnan(Sample->Speedups[B]))
        Samples[B].push_back(Sample->Speedups[B]);
    Baseline.push_back(Sample->BaselineValue);
    if (Opts.Metric.empty())
      if (std::optional<double> GHz = timeClockGHz(ClockIterations))
        Clocks.push_back(*GHz);
    M.Units = Unit + 1;
    results();
    double Widest = 0;
    for (const BuildResult &R : M.Builds)
      if (!R.Control)
        Widest = std::max(Widest, 100 * (R.High - R.Low));
    M.PrecisionReached = M.Units >= MinUnits && Widest < Opts.Precision;
    if (Opts.Progress)
      Opts.Progress(fmt::format("{} {}: {:.0f} s, widest interval {:.2f} points",
                                M.Mode == MeasureMode::Paired ? "process" : "round", M.Units,
                                elapsed(), Widest));
    if (M.PrecisionReached || (M.Units >= 2 && elapsed() >= Opts.TimeBudget))
      break;
  }
  M.BaselineValue = stats::median(Baseline);
  if (!Clocks.empty()) {
    M.ClockGHz = stats::median(Clocks);
    M.BaselineCycles = M.BaselineValue * *M.ClockGHz * 1e9;
  }
  M.Seconds = elapsed();
  return M;
}

} // namespace mlgo
