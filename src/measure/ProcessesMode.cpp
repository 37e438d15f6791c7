#include "LinkCommand.h"
#include "TimedRun.h"
#include "Units.h"
#include "stats/Statistics.h"
#include "support/Error.h"
#include "support/WaitStatus.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <regex>

namespace mlgo {
namespace {

class ProcessesUnits : public Units {
public:
  ProcessesUnits(const MeasureOptions &Opts, std::vector<Contestant> Contestants,
                 std::vector<std::string> Programs, std::string Scratch, std::regex Metric,
                 std::mt19937_64 &Random)
      : Opts(Opts), Contestants(std::move(Contestants)), Programs(std::move(Programs)),
        Scratch(std::move(Scratch)), Metric(std::move(Metric)), Random(Random) {}

  std::string metric() const override {
    return Opts.Metric.empty() ? "CPU seconds a run"
                               : fmt::format("the number --metric '{}' matches",
                                             Opts.Metric);
  }

  llvm::Error check(bool CompareOutputs) override {
    std::vector<std::string> Outputs;
    for (size_t B = 0; B < Contestants.size(); ++B) {
      Outputs.push_back(fmt::format("{}/check-{}.out", Scratch, B));
      if (auto Ran = runOnce(B, Outputs.back()); !Ran)
        return Ran.takeError();
    }
    return CompareOutputs ? compareOutputs(Contestants, Outputs) : llvm::Error::success();
  }

  llvm::Expected<UnitSample> run(unsigned) override {
    std::vector<size_t> Order;
    for (size_t B = 1; B < Contestants.size(); ++B)
      Order.push_back(B);
    std::shuffle(Order.begin(), Order.end(), Random);
    std::vector<Timed> Round;
    auto time = [&](size_t B) -> llvm::Error {
      auto Value = runOnce(B, Scratch + "/run.out");
      if (!Value)
        return Value.takeError();
      Round.push_back({B, *Value});
      return llvm::Error::success();
    };
    if (llvm::Error E = time(0))
      return E;
    for (size_t B : Order) {
      if (llvm::Error E = time(B))
        return E;
      if (llvm::Error E = time(0))
        return E;
    }
    UnitSample Sample;
    Sample.Speedups = roundSpeedups(Round, Contestants.size());
    std::vector<double> Baseline;
    for (const Timed &T : Round)
      if (T.Build == 0)
        Baseline.push_back(T.Value);
    Sample.BaselineValue = stats::median(Baseline);
    return Sample;
  }

private:
  /// Runs contestant \p B once with its standard output into \p Stdout; returns its
  /// value.
  llvm::Expected<double> runOnce(size_t B, const std::string &Stdout) {
    std::vector<std::string> Argv = {Programs[B]};
    Argv.insert(Argv.end(), Opts.Args.begin(), Opts.Args.end());
    std::string Stderr = Scratch + "/run.err";
    auto Ran = runTimed({Argv, "", Opts.Stdin, Stdout, Stderr});
    if (!Ran)
      return Ran.takeError();
    if (Ran->Status != 0)
      return inputError(Contestants[B].Path, "the program {}: {}", describeWaitStatus(Ran->Status),
                        firstLineOf(Stderr));
    if (Opts.Metric.empty())
      return Ran->CpuSeconds;
    std::string Text;
    for (const std::string &Path : {Stdout, Stderr})
      if (auto Buffer = llvm::MemoryBuffer::getFile(Path))
        Text += (*Buffer)->getBuffer().str() + "\n";
    std::smatch Last;
    for (auto It = std::sregex_iterator(Text.begin(), Text.end(), Metric);
         It != std::sregex_iterator(); ++It)
      Last = *It;
    if (Last.empty())
      return inputError(Contestants[B].Path, "its output has no match of --metric '{}'",
                        Opts.Metric);
    std::string Number = Last.size() > 1 && Last[1].matched ? Last[1].str() : Last[0].str();
    char *End = nullptr;
    double Value = std::strtod(Number.c_str(), &End);
    if (End == Number.c_str() || !std::isfinite(Value) || Value <= 0)
      return inputError(Contestants[B].Path,
                        "--metric '{}' matched '{}', which is no positive number", Opts.Metric,
                        Number);
    return Value;
  }

  const MeasureOptions &Opts;
  std::vector<Contestant> Contestants;
  std::vector<std::string> Programs;
  std::string Scratch;
  std::regex Metric;
  std::mt19937_64 &Random;
};

} // namespace

llvm::Expected<std::unique_ptr<Units>>
processesUnits(const MeasureOptions &Opts, const std::vector<Contestant> &Contestants,
               const std::string &Scratch, std::mt19937_64 &Random) {
  std::regex Metric;
  if (!Opts.Metric.empty()) {
    try {
      Metric = std::regex(Opts.Metric);
    } catch (const std::regex_error &E) {
      return inputError("--metric", "'{}' is no regular expression: {}", Opts.Metric,
                        E.what());
    }
  }
  // Directories are linked by the link command, run in the directory, into Scratch.
  std::vector<std::string> Programs;
  std::optional<LinkCommand> Link;
  for (size_t B = 0; B < Contestants.size(); ++B) {
    const Contestant &C = Contestants[B];
    if (!C.Directory) {
      Programs.push_back(C.Path);
      continue;
    }
    if (!Link) {
      auto Parsed = parseLinkCommand(Opts.Link);
      if (!Parsed)
        return Parsed.takeError();
      Link = std::move(*Parsed);
    }
    Programs.push_back(fmt::format("{}/program{}", Scratch, B));
    std::string Stderr = Scratch + "/link.err";
    auto Ran = runTimed({Link->with(Link->objects(), Programs.back()), C.Path, "", "", Stderr});
    if (!Ran)
      return Ran.takeError();
    if (Ran->Status != 0)
      return inputError(C.Path, "the link command {}: {}", describeWaitStatus(Ran->Status),
                        firstLineOf(Stderr));
  }
  return std::make_unique<ProcessesUnits>(Opts, Contestants, std::move(Programs), Scratch,
                                          std::move(Metric), Random);
}

} // namespace mlgo
