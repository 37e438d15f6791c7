#include "PairedPrograms.h"
#include "TimedRun.h"
#include "Units.h"
#include "stats/Statistics.h"
#include "support/Error.h"
#include "support/WaitStatus.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cmath>
#include <fmt/format.h>
#include <map>

namespace mlgo {

char PairedRefusal::ID = 0;

namespace {

class PairedUnits : public Units {
public:
  PairedUnits(const MeasureOptions &Opts, std::vector<Contestant> Contestants,
              PairedPrograms Programs, std::string Scratch, double Seconds,
              std::mt19937_64 &Random)
      : Opts(Opts), Contestants(std::move(Contestants)), Programs(std::move(Programs)),
        Scratch(std::move(Scratch)), Seconds(Seconds), Random(Random) {}

  std::string metric() const override { return "thread CPU seconds a call"; }

  llvm::Error check(bool CompareOutputs) override {
    std::string Dir = Scratch + "/check";
    if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
      return stageError("{}: cannot create: {}", Dir, EC.message());
    auto Results = runHarness(0, {"--check", Dir});
    if (!Results)
      return Results.takeError();
    if (!CompareOutputs)
      return llvm::Error::success();
    std::vector<std::string> Outputs;
    for (size_t B = 0; B < Contestants.size(); ++B)
      Outputs.push_back(fmt::format("{}/{}.out", Dir, B));
    // The baseline called again must print the same: its main can be called again.
    std::vector<Contestant> Again = {Contestants[0], Contestants[0]};
    if (llvm::Error E = compareOutputs(Again, {Outputs[0], Dir + "/again.out"})) {
      llvm::consumeError(std::move(E));
      return llvm::make_error<PairedRefusal>(
          Contestants[0].Path, "prints other output when its main is called again: paired "
                               "mode needs a main that can be called more than once");
    }
    return compareOutputs(Contestants, Outputs);
  }

  llvm::Expected<UnitSample> run(unsigned Unit) override {
    auto Lines = runHarness(Unit, {"--seconds", fmt::format("{}", Seconds), "--round",
                                   fmt::format("{}", Unit * 1000000ull + 1)});
    if (!Lines)
      return Lines.takeError();
    // Rounds as the harness wrote them: "ROUND SEQ BUILD SECONDS".
    std::map<long, std::vector<Timed>> Rounds;
    for (llvm::StringRef Line : *Lines) {
      long Round;
      int Sequence;
      size_t Build;
      double Value;
      if (std::sscanf(Line.str().c_str(), "%ld %d %zu %lf", &Round, &Sequence, &Build,
                      &Value) == 4 &&
          Build < Contestants.size())
        Rounds[Round].push_back({Build, Value});
    }
    std::vector<std::vector<double>> PerBuild(Contestants.size());
    std::vector<double> Baseline;
    for (const auto &[Round, Calls] : Rounds) {
      std::vector<double> Speedups = roundSpeedups(Calls, Contestants.size());
      for (size_t B = 1; B < Contestants.size(); ++B)
        if (!std::isnan(Speedups[B]))
          PerBuild[B].push_back(Speedups[B]);
      for (const Timed &T : Calls)
        if (T.Build == 0)
          Baseline.push_back(T.Value);
    }
    if (Baseline.empty())
      return stageError("the paired program measured no round");
    UnitSample Sample;
    Sample.Speedups.assign(Contestants.size(), std::nan(""));
    for (size_t B = 1; B < Contestants.size(); ++B)
      if (!PerBuild[B].empty())
        Sample.Speedups[B] = stats::median(PerBuild[B]);
    Sample.BaselineValue = stats::median(Baseline);
    return Sample;
  }

private:
  /// Links layout \p Unit and runs it with \p Extra options; returns the results file's
  /// lines, once the harness has written "done".
  llvm::Expected<std::vector<llvm::StringRef>> runHarness(unsigned Unit,
                                                          std::vector<std::string> Extra) {
    std::vector<size_t> Order;
    auto Program = Programs.link(Unit, Random, Order);
    if (!Program)
      return Program.takeError();
    std::string ResultsPath = Scratch + "/results", Stderr = Scratch + "/harness.err";
    std::vector<std::string> Argv = {*Program, "--results", ResultsPath};
    Argv.insert(Argv.end(), Extra.begin(), Extra.end());
    for (size_t B = 0; B < Contestants.size(); ++B)
      Argv.push_back(Contestants[B].Name);
    Argv.push_back("--");
    Argv.insert(Argv.end(), Opts.Args.begin(), Opts.Args.end());
    auto Ran = runTimed({Argv, "", Opts.Stdin, "", Stderr});
    if (!Ran)
      return Ran.takeError();
    llvm::sys::fs::remove(*Program);
    auto Buffer = llvm::MemoryBuffer::getFile(ResultsPath);
    if (!Buffer)
      return stageError("the paired program {} and wrote no results: {}",
                        describeWaitStatus(Ran->Status), firstLineOf(Stderr));
    Results = std::move(*Buffer);
    llvm::SmallVector<llvm::StringRef> Lines;
    Results->getBuffer().split(Lines, '\n', -1, false);
    size_t Build;
    int Status;
    for (llvm::StringRef Line : Lines) {
      if (std::sscanf(Line.str().c_str(), "exit %zu", &Build) == 1 &&
          Build < Contestants.size())
        return llvm::make_error<PairedRefusal>(
            Contestants[Build].Path, "its main called exit(): paired mode needs a main "
                                     "that returns");
      if (std::sscanf(Line.str().c_str(), "status %zu %d", &Build, &Status) == 2 &&
          Build < Contestants.size())
        return inputError(Contestants[Build].Path, "its main returned {}: {}", Status,
                          firstLineOf(Stderr));
    }
    if (Lines.empty() || Lines.back() != "done")
      return stageError("the paired program {}: {}", describeWaitStatus(Ran->Status),
                        firstLineOf(Stderr));
    return std::vector<llvm::StringRef>(Lines.begin(), Lines.end());
  }

  const MeasureOptions &Opts;
  std::vector<Contestant> Contestants;
  PairedPrograms Programs;
  std::string Scratch;
  double Seconds;
  std::mt19937_64 &Random;
  std::unique_ptr<llvm::MemoryBuffer> Results;
};

} // namespace

llvm::Expected<std::unique_ptr<Units>>
pairedUnits(const MeasureOptions &Opts, const std::vector<Contestant> &Contestants,
            const std::string &Scratch, double SecondsPerProcess, std::mt19937_64 &Random) {
  auto Link = parseLinkCommand(Opts.Link);
  if (!Link)
    return Link.takeError();
  std::vector<std::string> Directories;
  for (const Contestant &C : Contestants)
    Directories.push_back(C.Path);
  auto Programs = PairedPrograms::prepare(*Link, Directories, Scratch, Opts.Clang,
                                          Opts.CodeShift);
  if (!Programs)
    return Programs.takeError();
  return std::make_unique<PairedUnits>(Opts, Contestants, std::move(*Programs), Scratch,
                                       SecondsPerProcess, Random);
}

} // namespace mlgo
