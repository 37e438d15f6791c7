#include "LinkCommand.h"
#include "TimedRun.h"
#include "Units.h"
#include "stats/Statistics.h"
#include "support/Error.h"
#include "support/WaitStatus.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <regex>
#include <unistd.h>

namespace mlgo {
namespace {

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> readExecutable(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return inputError(Path, "cannot read it: {}", Buffer.getError().message());
  return std::move(*Buffer);
}

/// Writes \p Bytes to a new executable file at \p Path in one write, so that its pages
/// are new ones.
llvm::Error writeExecutable(const std::string &Path, llvm::StringRef Bytes) {
  int Fd = ::open(Path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
  if (Fd < 0)
    return stageError("cannot write {}: {}", Path, std::strerror(errno));
  size_t Done = 0;
  while (Done < Bytes.size()) {
    ssize_t N = ::write(Fd, Bytes.data() + Done, Bytes.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      int Errno = N < 0 ? errno : ENOSPC;
      ::close(Fd);
      return stageError("cannot write {}: {}", Path, std::strerror(Errno));
    }
    Done += static_cast<size_t>(N);
  }
  if (::close(Fd) != 0)
    return stageError("cannot write {}: {}", Path, std::strerror(errno));
  return llvm::Error::success();
}

class ProcessesUnits : public Units {
public:
  ProcessesUnits(const MeasureOptions &Opts, std::vector<Contestant> Contestants,
                 std::vector<std::unique_ptr<llvm::MemoryBuffer>> Images, std::string Scratch,
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
      if (llvm::Error E = writeExecutable(Programs[B], Images[B]->getBuffer()))
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
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> Images;
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
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> Images;
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
