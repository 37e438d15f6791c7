#include "NativeMeasure.h"
#include "compile/ChildProcess.h"
#include "compile/Variant.h"
#include "policy/Policy.h"
#include "support/Error.h"
#include "support/InputFile.h"

#include "llvm/Support/FileSystem.h"
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

extern char **environ;

namespace mlgo {
namespace {

struct TimedRun {
  int Status = 0;
  double CpuSeconds = 0;
};

/// Runs `sh -c Command` in \p Dir, stdin from /dev/null, stdout and stderr into files;
/// its CPU seconds are those of the shell and everything it waited for.
llvm::Expected<TimedRun> runTimed(const std::string &Command, const std::string &Dir,
                                  const std::string &Stdout, const std::string &Stderr) {
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_addopen(&Actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&Actions, 1, Stdout.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_addopen(&Actions, 2, Stderr.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_addchdir_np(&Actions, Dir.c_str());
  const char *Argv[] = {"/bin/sh", "-c", Command.c_str(), nullptr};
  pid_t Pid;
  int Failed = posix_spawn(&Pid, "/bin/sh", &Actions, nullptr, const_cast<char **>(Argv),
                           environ);
  posix_spawn_file_actions_destroy(&Actions);
  if (Failed)
    return stageError("cannot run /bin/sh: {}", std::strerror(Failed));
  TimedRun R;
  rusage Usage{};
  while (wait4(Pid, &R.Status, 0, &Usage) < 0)
    if (errno != EINTR)
      return stageError("cannot wait for /bin/sh: {}", std::strerror(errno));
  auto Seconds = [](const timeval &T) { return T.tv_sec + T.tv_usec / 1e6; };
  R.CpuSeconds = Seconds(Usage.ru_utime) + Seconds(Usage.ru_stime);
  return R;
}

/// The value below which a share \p Q of the sorted \p V lies (linear interpolation).
double quantile(const std::vector<double> &V, double Q) {
  double At = Q * (V.size() - 1);
  size_t Low = static_cast<size_t>(At);
  size_t High = std::min(Low + 1, V.size() - 1);
  return V[Low] + (At - Low) * (V[High] - V[Low]);
}

struct Build {
  std::string Name, Policy, Directory, Program;
  std::vector<double> Seconds; ///< per round
};

/// Compiles \p B's policy into its directory and links it.
llvm::Error build(const Build &B, const VariantPlan &Plan, const NativeMeasureOptions &Opts) {
  auto P = loadPolicy(B.Policy);
  if (!P)
    return P.takeError();
  VariantOptions Variant;
  Variant.Clang = Opts.Clang;
  Variant.Jobs = Opts.Jobs;
  Variant.TimeoutSeconds = Opts.TimeoutSeconds;
  if (auto R = compileVariant(*P, Plan, B.Directory, Variant); !R)
    return R.takeError();
  auto Linked = runTimed(Opts.Link, B.Directory, B.Directory + "/link.out",
                         B.Directory + "/link.err");
  if (!Linked)
    return Linked.takeError();
  if (Linked->Status != 0)
    return stageError("{}: the link command {} (see {}/link.err)", B.Name,
                      ChildProcess::describe(Linked->Status), B.Directory);
  if (!llvm::sys::fs::can_execute(B.Program))
    return stageError("{}: the link command made no program {}", B.Name, B.Program);
  return llvm::Error::success();
}

std::string runCommand(const NativeMeasureOptions &Opts, const Build &B) {
  std::string Command = Opts.Run;
  for (size_t At; (At = Command.find("{program}")) != std::string::npos;)
    Command.replace(At, 9, "'" + B.Program + "'");
  return Command;
}

} // namespace

llvm::Expected<Json> measureNatively(const NativeMeasureOptions &Opts,
                                     llvm::ArrayRef<NativeCandidate> Candidates,
                                     llvm::StringRef Directory) {
  auto Start = std::chrono::steady_clock::now();
  if (Opts.Rounds < 1)
    return inputError("--measure-rounds", "must be at least 1");
  if (std::error_code EC = llvm::sys::fs::create_directories(Directory))
    return stageError("{}: cannot create: {}", Directory, EC.message());
  PlanOptions Planning;
  Planning.Clang = Opts.Clang;
  Planning.CacheDir = Opts.CacheDir;
  Planning.TracedOnly = false; // the whole program is linked
  Planning.Jobs = Opts.Jobs;
  Planning.TimeoutSeconds = Opts.TimeoutSeconds;
  auto Plan = planVariant(Opts.Corpus, Planning);
  if (!Plan)
    return Plan.takeError();

  std::vector<Build> Builds;
  Builds.push_back({"default", "default", "", "", {}});
  for (const NativeCandidate &C : Candidates)
    Builds.push_back({C.Name, C.Policy, "", "", {}});
  for (Build &B : Builds) {
    B.Directory = (Directory + "/" + B.Name).str();
    B.Program = B.Directory + "/" + Opts.Program;
    // An earlier measurement's build (a variant, linked and run): replaced whole.
    if (llvm::sys::fs::exists(B.Directory + "/" + VariantDescriptionFile))
      if (std::error_code EC = llvm::sys::fs::remove_directories(B.Directory))
        return stageError("{}: cannot remove the earlier build: {}", B.Directory,
                          EC.message());
    if (llvm::Error E = build(B, *Plan, Opts))
      return E;
  }

  // A first run of each: what `default` prints, every build must print (a policy must
  // not change what the program does), and the caches warm.
  std::string Expected;
  for (Build &B : Builds) {
    std::string Out = B.Directory + "/run.out";
    auto R = runTimed(runCommand(Opts, B), B.Directory, Out, B.Directory + "/run.err");
    if (!R)
      return R.takeError();
    if (R->Status != 0)
      return stageError("{}: the run command {} (see {}/run.err)", B.Name,
                        ChildProcess::describe(R->Status), B.Directory);
    auto Printed = readRegularFile(Out);
    if (!Printed)
      return Printed.takeError();
    if (&B == &Builds.front())
      Expected = (*Printed)->getBuffer().str();
    else if ((*Printed)->getBuffer() != Expected)
      return stageError("{}: the program prints other output than the default build's "
                        "({} against {}/run.out)",
                        B.Name, Out, Builds.front().Directory);
  }
  // Rounds, each in another order, so that no build always runs after the same one.
  for (unsigned Round = 0; Round < Opts.Rounds; ++Round)
    for (size_t K = 0; K < Builds.size(); ++K) {
      Build &B = Builds[(K + Round) % Builds.size()];
      auto R = runTimed(runCommand(Opts, B), B.Directory, "/dev/null",
                        B.Directory + "/run.err");
      if (!R)
        return R.takeError();
      if (R->Status != 0)
        return stageError("{}: the run command {} in round {} (see {}/run.err)", B.Name,
                          ChildProcess::describe(R->Status), Round + 1, B.Directory);
      B.Seconds.push_back(R->CpuSeconds);
    }

  const Build &Default = Builds.front();
  auto median = [](std::vector<double> V) {
    std::sort(V.begin(), V.end());
    return quantile(V, 0.5);
  };
  Json Measured = Json::array();
  for (const Build &B : llvm::ArrayRef(Builds).drop_front()) {
    std::vector<double> Speedups;
    for (unsigned Round = 0; Round < Opts.Rounds; ++Round)
      if (B.Seconds[Round] > 0)
        Speedups.push_back(Default.Seconds[Round] / B.Seconds[Round] - 1);
    if (Speedups.empty())
      return stageError("{}: its runs took no measurable CPU time: make the run command "
                        "run longer",
                        B.Name);
    std::sort(Speedups.begin(), Speedups.end());
    double Q1 = quantile(Speedups, 0.25), Q3 = quantile(Speedups, 0.75);
    Measured.push_back({{"name", B.Name},
                        {"policy", B.Policy},
                        {"median_seconds", median(B.Seconds)},
                        {"speedup", quantile(Speedups, 0.5)},
                        {"q1", Q1},
                        {"q3", Q3},
                        {"verdict", Q1 > 0 ? "faster" : Q3 < 0 ? "slower" : "within noise"}});
  }
  double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  return Json{{"native",
               {{"run", Opts.Run},
                {"rounds", Opts.Rounds},
                {"default_seconds", median(Default.Seconds)},
                {"builds", std::move(Measured)},
                {"seconds", Seconds}}}};
}

std::string describeNative(const Json &Native) {
  std::string Lines;
  if (!Native.is_object() || !Native.contains("builds") || !Native["builds"].is_array())
    return Lines;
  auto number = [](const Json &J, const char *Key) {
    return J.contains(Key) && J[Key].is_number() ? J[Key].get<double>() : 0.0;
  };
  for (const Json &B : Native["builds"]) {
    if (!B.is_object())
      continue;
    Lines += fmt::format("{}: {:+.2f}% [{:+.2f}%, {:+.2f}%] {} ({} rounds of {:.3f} s)\n",
                         B.value("name", std::string("?")), 100 * number(B, "speedup"),
                         100 * number(B, "q1"), 100 * number(B, "q3"),
                         B.value("verdict", std::string("?")),
                         Native.value("rounds", 0u), number(Native, "default_seconds"));
  }
  return Lines;
}

} // namespace mlgo
