#include "LinkCommand.h"
#include "TimedRun.h"
#include "Units.h"
#include "stats/Statistics.h"
#include "support/Error.h"
#include "support/InputFile.h"
#include "support/OutputFile.h"
#include "support/WaitStatus.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <regex>

namespace mlgo {
namespace {

/// The bytes of the executable \p Path, copied: a mapping would follow the file if it
/// were written again while measure runs.
llvm::Expected<std::string> readExecutable(const std::string &Path) {
  auto Buffer = readRegularFile(Path);
  if (!Buffer)
    return Buffer.takeError();
  return (*Buffer)->getBuffer().str();
}

/// Writes \p Bytes to a new executable file at \p Path, so that its pages are new ones.
llvm::Error writeExecutable(const std::string &Path, llvm::StringRef Bytes) {
  if (llvm::Error E = writeFileAtomically(Path, Bytes))
    return E;
  if (std::error_code EC = llvm::sys::fs::setPermissions(
          Path, llvm::sys::fs::perms(0755)))
    return stageError("cannot make {} executable: {}", Path, EC.message());
  return llvm::Error::success();
}

class ProcessesUnits : public Units {
public:
  ProcessesUnits(const MeasureOptions &Opts, std::vector<Contestant> Contestants,
                 std::vector<std::string> Images, std::string Scratch,
                 std::regex Metric, std::mt19937_64 &Random)
      : Opts(Opts), Contestants(std::move(Contestants)), Images(std::move(Images)),
        Scratch(std::move(Scratch)), Metric(std::move(Metric)), Random(Random) {}

  std::string metric() const override {
    return Opts.Metric.empty() ? "CPU seconds a run"
                               : fmt::format("the number --metric '{}' matches",
                                             Opts.Metric);
  }

  llvm::Error check(bool CompareOutputs) override {
    if (llvm::Error E = copyPrograms())
      return E;
    std::vector<std::string> Outputs;
    for (size_t B = 0; B < Contestants.size(); ++B) {
      Outputs.push_back(fmt::format("{}/check-{}.out", Scratch, B));
      if (auto Ran = runOnce(B, Outputs.back()); !Ran)
        return Ran.takeError();
    }
    return CompareOutputs ? compareOutputs(Contestants, Outputs) : llvm::Error::success();
  }

  llvm::Expected<UnitSample> run(unsigned) override {
    if (llvm::Error E = copyPrograms())
      return E;
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
  /// Writes every contestant's program anew, in a shuffled order, before it removes the
  /// last round's copies. Where a file's pages sit in physical memory moves its speed:
  /// on a shared virtual machine, identical copies of one executable measured up to 37%
  /// apart for the whole of a call (docs/measure.md). A file removed and written again
  /// gets its pages back, so the copies are written while the last round's still hold
  /// theirs, in a new order: builds trade places round by round. Placement is then a
  /// round's noise, which the interval shows, and not a bias it hides.
  llvm::Error copyPrograms() {
    std::vector<size_t> Order(Images.size());
    for (size_t B = 0; B < Order.size(); ++B)
      Order[B] = B;
    std::shuffle(Order.begin(), Order.end(), Random);
    std::vector<std::string> Last = std::move(Programs);
    Programs.assign(Images.size(), "");
    Generation ^= 1;
    for (size_t B : Order) {
      Programs[B] = fmt::format("{}/program{:02}.{}", Scratch, B, Generation);
      if (llvm::Error E = writeExecutable(Programs[B], Images[B]))
        return E;
    }
    for (const std::string &Path : Last)
      llvm::sys::fs::remove(Path);
    return llvm::Error::success();
  }

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
  /// Each contestant's executable, read once, and where this round's copy of it runs.
  std::vector<std::string> Images;
  std::vector<std::string> Programs;
  unsigned Generation = 0;
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
  std::vector<std::string> Images;
  std::optional<LinkCommand> Link;
  for (size_t B = 0; B < Contestants.size(); ++B) {
    const Contestant &C = Contestants[B];
    if (!C.Directory) {
      auto Image = readExecutable(C.Path);
      if (!Image)
        return Image.takeError();
      Images.push_back(std::move(*Image));
      continue;
    }
    if (!Link) {
      auto Parsed = parseLinkCommand(Opts.Link);
      if (!Parsed)
        return Parsed.takeError();
      Link = std::move(*Parsed);
    }
    std::string Linked = Scratch + "/linked", Stderr = Scratch + "/link.err";
    auto Ran = runTimed({Link->with(Link->objects(), Linked), C.Path, "", "", Stderr});
    if (!Ran)
      return Ran.takeError();
    if (Ran->Status != 0)
      return inputError(C.Path, "the link command {}: {}", describeWaitStatus(Ran->Status),
                        firstLineOf(Stderr));
    auto Image = readExecutable(Linked);
    if (!Image)
      return Image.takeError();
    Images.push_back(std::move(*Image));
  }
  return std::make_unique<ProcessesUnits>(Opts, Contestants, std::move(Images), Scratch,
                                          std::move(Metric), Random);
}

} // namespace mlgo
