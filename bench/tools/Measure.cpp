/// \file
/// accuracy-measure: runs a baseline program and its variants natively, interleaved,
/// and writes one value per run. The metric, the first this machine offers:
///   cycles      user-mode CPU cycles from the hardware counter (what `perf stat -e
///               cycles:u` reads), through perf_event_open;
///   task-clock  the nanoseconds the program ran on a CPU, user and kernel (perf's
///               software counter; virtual machines often have no cycle counter);
///   cpu-time    wait4's rusage, user + system time (perf_event_open not allowed).
/// Or, asked for only: reported, the seconds the program reports itself on the last line
/// of its standard error ("...: S s"; the examples' EXAMPLE_ITERATIONS, see
/// examples/iterations.h), e.g. the best of several iterations timed inside it.
/// User time alone is not offered: Linux splits a process's CPU time between user and
/// system by sampling ticks, which on a 20 ms execution moves it by a tick or more.
/// Every run's standard output must equal the baseline's, so a variant that computes
/// something else is an error rather than a fast point on the plot.
///
/// Usage: accuracy-measure [--rounds N] [--executions K]
///          [--metric auto|cycles|task-clock|cpu-time|reported] [--workload NAME]
///          [-o RUNS.tsv]
///          NAME=BINARY... -- ARG...
/// The first NAME=BINARY is the baseline. One untimed warm-up round runs every binary
/// once; then each of N rounds runs every variant once, in an order shuffled per round,
/// with the baseline before the first and after each, so that every variant run has a
/// baseline run on either side (B V B V ... V B): a change of the machine's load shows
/// in both. A run is K executions (default 1) and its value their sum: each execution
/// gets its own address-space layout (ASLR), and the run averages over them, where a
/// single execution can be 20% faster or slower by where its stack and heap fell.
/// Output: "# metric: NAME", then lines "workload round sequence name value"
/// (sequence: the run's place in its round).
#include "CLI/CLI.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <string>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

enum class Metric { Cycles, TaskClock, CpuTime, Reported };
const char *const MetricNames[] = {"cycles", "task-clock", "cpu-time", "reported"};

struct Program {
  std::string Name, Path;
};

struct Run {
  double Value = 0;
  std::string Output;
};

[[noreturn]] void fail(const std::string &Message) {
  std::fprintf(stderr, "accuracy-measure: error: %s\n", Message.c_str());
  std::exit(1);
}

/// A counter of \p M for \p Pid (0: this process, counting at once; else the child,
/// from its exec on), or -1 with errno set.
int openCounter(Metric M, pid_t Pid) {
  perf_event_attr Attr;
  std::memset(&Attr, 0, sizeof Attr);
  Attr.size = sizeof Attr;
  if (M == Metric::Cycles) {
    Attr.type = PERF_TYPE_HARDWARE;
    Attr.config = PERF_COUNT_HW_CPU_CYCLES;
    Attr.exclude_kernel = 1;
    Attr.exclude_hv = 1;
  } else {
    Attr.type = PERF_TYPE_SOFTWARE;
    Attr.config = PERF_COUNT_SW_TASK_CLOCK;
  }
  Attr.inherit = 1;
  Attr.disabled = 1;
  Attr.enable_on_exec = Pid != 0;
  return int(syscall(SYS_perf_event_open, &Attr, Pid, -1, -1, PERF_FLAG_FD_CLOEXEC));
}

/// Whether this machine counts \p M; \p Why says why not.
bool counts(Metric M, std::string &Why) {
  if (M == Metric::CpuTime || M == Metric::Reported)
    return true;
  int Fd = openCounter(M, 0);
  if (Fd < 0) {
    Why = std::string("perf_event_open(") + MetricNames[int(M)] + "): " + std::strerror(errno);
    return false;
  }
  ioctl(Fd, PERF_EVENT_IOC_ENABLE, 0);
  volatile uint64_t Sink = 0;
  for (int I = 0; I < 1000000; ++I)
    Sink = Sink + uint64_t(I);
  ioctl(Fd, PERF_EVENT_IOC_DISABLE, 0);
  uint64_t Count = 0;
  bool Counted = read(Fd, &Count, sizeof Count) == sizeof Count && Count > 0;
  close(Fd);
  if (!Counted)
    Why = std::string("the ") + MetricNames[int(M)] + " counter opens but counts nothing";
  return Counted;
}

/// The seconds a program reported on the last line of its standard error, \p Err
/// (a file, so that a program writing much there cannot block on a full pipe).
double reportedSeconds(const Program &P, FILE *Err) {
  std::string Text;
  char Buffer[4096];
  std::rewind(Err);
  for (size_t N; (N = std::fread(Buffer, 1, sizeof Buffer, Err)) > 0;)
    Text.append(Buffer, N);
  std::fclose(Err);
  while (!Text.empty() && Text.back() == '\n')
    Text.pop_back();
  std::string Line = Text.substr(Text.rfind('\n') + 1);
  size_t Colon = Line.rfind(": ");
  char *End = nullptr;
  double Seconds = Colon == std::string::npos ? 0 : std::strtod(Line.c_str() + Colon + 2, &End);
  if (Colon == std::string::npos || End == Line.c_str() + Colon + 2 || std::string(End) != " s" ||
      !(Seconds > 0))
    fail(P.Name + ": reports no seconds (its standard error's last line is '" + Line +
         "', not '...: S s')");
  return Seconds;
}

Run runOnce(const Program &P, const std::vector<std::string> &Args, Metric M) {
  int Out[2], Go[2];
  if (pipe(Out) != 0 || pipe(Go) != 0)
    fail(std::string("pipe: ") + std::strerror(errno));
  FILE *Err = M == Metric::Reported ? std::tmpfile() : nullptr;
  if (M == Metric::Reported && !Err)
    fail(std::string("tmpfile: ") + std::strerror(errno));
  pid_t Child = fork();
  if (Child < 0)
    fail(std::string("fork: ") + std::strerror(errno));
  if (Child == 0) {
    dup2(Out[1], 1);
    if (Err)
      dup2(fileno(Err), 2);
    close(Out[0]), close(Out[1]), close(Go[1]);
    char Byte;
    if (read(Go[0], &Byte, 1) != 1) // the parent attaches the counter first
      _exit(126);
    close(Go[0]);
    std::vector<char *> Argv{const_cast<char *>(P.Path.c_str())};
    for (const std::string &A : Args)
      Argv.push_back(const_cast<char *>(A.c_str()));
    Argv.push_back(nullptr);
    execv(P.Path.c_str(), Argv.data());
    _exit(127);
  }
  close(Out[1]), close(Go[0]);
  int Counter = -1;
  if (M != Metric::CpuTime && M != Metric::Reported && (Counter = openCounter(M, Child)) < 0)
    fail(P.Name + ": perf_event_open(" + MetricNames[int(M)] + "): " + std::strerror(errno));
  if (write(Go[1], "g", 1) != 1)
    fail(P.Name + ": cannot start " + P.Path);
  close(Go[1]);
  Run R;
  char Buffer[4096];
  for (ssize_t N; (N = read(Out[0], Buffer, sizeof Buffer)) != 0;) {
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      fail(std::string("read: ") + std::strerror(errno));
    R.Output.append(Buffer, size_t(N));
  }
  close(Out[0]);
  int Status = 0;
  rusage Usage;
  while (wait4(Child, &Status, 0, &Usage) < 0)
    if (errno != EINTR)
      fail(std::string("wait4: ") + std::strerror(errno));
  if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0)
    fail(P.Name + ": " + P.Path + " failed (wait status " + std::to_string(Status) + ")");
  if (M == Metric::Reported) {
    R.Value = reportedSeconds(P, Err);
  } else if (M == Metric::CpuTime) {
    R.Value = double(Usage.ru_utime.tv_sec + Usage.ru_stime.tv_sec) +
              double(Usage.ru_utime.tv_usec + Usage.ru_stime.tv_usec) / 1e6;
  } else {
    uint64_t Count = 0;
    if (read(Counter, &Count, sizeof Count) != sizeof Count || Count == 0)
      fail(P.Name + ": no " + MetricNames[int(M)] + " count");
    close(Counter);
    R.Value = M == Metric::TaskClock ? double(Count) / 1e9 : double(Count);
  }
  return R;
}

} // namespace

int main(int Argc, char **Argv) {
  int Rounds = 15, Executions = 1;
  std::string MetricName = "auto", Workload = "workload", OutPath = "-";
  std::vector<std::string> Specs;
  CLI::App App("Runs a baseline program and its variants natively, interleaved, and "
               "writes one value per run",
               "accuracy-measure");
  App.add_option("--rounds", Rounds, "Rounds of runs")->capture_default_str()
      ->check(CLI::PositiveNumber);
  App.add_option("--executions", Executions, "Executions a run")->capture_default_str()
      ->check(CLI::PositiveNumber);
  App.add_option("--metric", MetricName, "auto, cycles, task-clock, cpu-time or reported")
      ->capture_default_str();
  App.add_option("--workload", Workload, "The first column of every line")
      ->capture_default_str();
  App.add_option("-o", OutPath, "Where to write the runs (-: standard output)")
      ->capture_default_str();
  App.add_option("programs", Specs, "NAME=BINARY..., the baseline first")->required();
  App.footer("The programs' arguments follow --.");
  // What follows -- is the programs', not ours.
  int Ours = std::find(Argv, Argv + Argc, std::string("--")) - Argv;
  std::vector<std::string> Args(Argv + std::min(Ours + 1, Argc), Argv + Argc);
  try {
    App.parse(Ours, Argv);
  } catch (const CLI::ParseError &E) {
    return App.exit(E);
  }
  std::vector<Program> Programs;
  for (const std::string &Spec : Specs) {
    size_t Eq = Spec.find('=');
    if (Eq == std::string::npos || Eq == 0)
      fail("'" + Spec + "' is not NAME=BINARY");
    Programs.push_back({Spec.substr(0, Eq), Spec.substr(Eq + 1)});
  }

  Metric M = Metric::CpuTime;
  if (MetricName == "auto") {
    std::string Why;
    for (Metric Candidate : {Metric::Cycles, Metric::TaskClock, Metric::CpuTime}) {
      std::string Reason;
      if (counts(Candidate, Reason)) {
        M = Candidate;
        break;
      }
      Why += (Why.empty() ? "" : "; ") + Reason;
    }
    if (M != Metric::Cycles)
      std::fprintf(stderr, "accuracy-measure: no cycle counter (%s); measuring %s\n",
                   Why.c_str(), MetricNames[int(M)]);
  } else {
    auto It = std::find(std::begin(MetricNames), std::end(MetricNames), MetricName);
    if (It == std::end(MetricNames))
      fail("--metric must be auto, cycles, task-clock, cpu-time or reported");
    M = Metric(It - std::begin(MetricNames));
    std::string Why;
    if (!counts(M, Why))
      fail(Why);
  }

  FILE *Out = OutPath == "-" ? stdout : std::fopen(OutPath.c_str(), "w");
  if (!Out)
    fail(OutPath + ": " + std::strerror(errno));
  std::fprintf(Out, "# metric: %s\n", MetricNames[int(M)]);

  // Warm-up: every binary once, untimed; each must print what the baseline prints.
  std::string Expected = runOnce(Programs[0], Args, M).Output;
  for (const Program &P : Programs)
    if (runOnce(P, Args, M).Output != Expected)
      fail(P.Name + ": " + P.Path + " prints something else than the baseline");

  std::vector<size_t> Variants(Programs.size() - 1);
  uint64_t State = 0x9E3779B97F4A7C15ULL;
  for (int Round = 1; Round <= Rounds; ++Round) {
    for (size_t I = 0; I < Variants.size(); ++I)
      Variants[I] = I + 1;
    for (size_t I = Variants.size(); I > 1; --I) { // Fisher-Yates with xorshift64*
      State ^= State >> 12, State ^= State << 25, State ^= State >> 27;
      std::swap(Variants[I - 1], Variants[(State * 0x2545F4914F6CDD1DULL >> 33) % I]);
    }
    std::vector<size_t> Sequence{0};
    for (size_t Index : Variants)
      Sequence.push_back(Index), Sequence.push_back(0);
    for (size_t Place = 0; Place < Sequence.size(); ++Place) {
      const Program &P = Programs[Sequence[Place]];
      double Sum = 0;
      for (int E = 0; E < Executions; ++E) {
        Run R = runOnce(P, Args, M);
        if (R.Output != Expected)
          fail(P.Name + ": output changed in round " + std::to_string(Round));
        Sum += R.Value;
      }
      std::fprintf(Out, "%s\t%d\t%zu\t%s\t%.9g\n", Workload.c_str(), Round, Place,
                   P.Name.c_str(), Sum);
    }
    std::fflush(Out);
  }
  if (Out != stdout && std::fclose(Out) != 0)
    fail(OutPath + ": " + std::strerror(errno));
  return 0;
}
