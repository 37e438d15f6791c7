/// \file
/// From loop timings to a core profile.
#include "Calibrate.h"
#include "Clock.h"
#include "FetchLoops.h"
#include "HostCpu.h"
#include "StoreLoadLoops.h"
#include "support/Error.h"

#include "llvm/ADT/StringRef.h"
#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace mlgo {

namespace {

/// Store-to-load paths at most this long are renaming: forwarding from the store
/// buffer takes 4 cycles or more on every x86-64 core of the last decade.
constexpr double MaxRenamedPath = 2.5;

/// A core that waits for a store's address costs the chase after it this much at least:
/// half the three multiplies that make the address (9 cycles).
constexpr double MinWaitCycles = 4.5;

/// A block that crosses a line boundary costs at least this much more than one within
/// a line where the front end fetches by lines: a whole cycle on Zen 4.
constexpr double MinCrossingCycles = 0.5;

/// A loop of one more operation in its line takes at least this much more where the
/// line delivers no more at once (Zen 5: 1.5 cycles more), dispatch's width an eighth.
constexpr double MinLineOpsCycles = 1.0;

/// The renamed reload's cycles, from \p Loops (StoreLoadLoops.h), where the core
/// renames. The engine's rule pairs whole-register stores and loads of a stack slot
/// (mov and push, mov and pop), whatever register the load writes: renamed when the
/// 64-bit reload is, into the stored register and into another. Spill code reloads after
/// the register has been put to other use, and a core fast only for the first (an Intel
/// of family 6 model 207: 0.7 cycles against 4-5) forwards what spill code does.
std::optional<unsigned> renamedReload(const std::vector<LoopCycles> &Loops) {
  std::optional<double> Path;
  for (const LoopCycles &L : Loops)
    if (L.Name == "spill_reload" || L.Name == "spill_reload_other")
      Path = std::max(Path.value_or(0.0), L.path());
  if (!Path || *Path > MaxRenamedPath)
    return std::nullopt;
  return unsigned(std::lround(std::max(0.0, *Path)));
}

/// The forwarding latency, from \p Loops: the slowest store-to-load path, rounded; none
/// where none was measured. On the Intel of family 6 model 207 a reload into another
/// register (4-5 cycles), on Zen 4 a folded reload (6.8): the loads the engine forwards
/// on each. On Zen 5 every path, the folded reload's too, is renaming's (0), and so is
/// the latency: the engine's own rule would charge its folded reloads a load's latency
/// and 2 cycles more.
std::optional<unsigned> forwardedReload(const std::vector<LoopCycles> &Loops) {
  std::optional<double> Path;
  for (const LoopCycles &L : Loops)
    if (L.Name != SlotOperationLoop && hasStoreToLoadPath(L))
      Path = std::max(Path.value_or(0.0), L.path());
  if (!Path)
    return std::nullopt;
  return unsigned(std::lround(std::max(0.0, *Path)));
}

/// How soon an add to a slot has the value the add before stored there, from \p Loops:
/// its loop's path, rounded (an add a cycle on the Intel of family 6 model 207: 0).
std::optional<unsigned> slotOperation(const std::vector<LoopCycles> &Loops) {
  for (const LoopCycles &L : Loops)
    if (L.Name == SlotOperationLoop)
      return unsigned(std::lround(std::max(0.0, L.path())));
  return std::nullopt;
}

/// The cycles of the loop named \p Name in \p Loops; none where it was not measured.
std::optional<double> cyclesOf(const std::vector<LoopCycles> &Loops, llvm::StringRef Name) {
  for (const LoopCycles &L : Loops)
    if (L.Name == Name)
      return L.Cycles;
  return std::nullopt;
}

/// Whether loads go ahead of older stores' unknown addresses, from \p Loops: the
/// store behind the chase costs it less than MinWaitCycles. Not measured: no.
bool speculativeLoads(const std::vector<LoopCycles> &Loops) {
  std::optional<double> Chase = cyclesOf(Loops, PointerChaseLoop),
                        PastStore = cyclesOf(Loops, LoadPastStoreLoop);
  return Chase && PastStore && *PastStore - *Chase < MinWaitCycles;
}

/// The line the front end fetches by, from \p Fetch (FetchLoops.h): the smallest
/// boundary whose crossing costs. (On Zen 5, which takes two jumps a cycle, what the
/// crossing costs is the split jump's: the last lea lies across the line, its jmp past.)
std::optional<unsigned> fetchLine(const std::vector<FetchCycles> &Fetch) {
  if (Fetch.empty() || Fetch.front().Crosses != 0)
    return std::nullopt;
  for (const FetchCycles &F : Fetch)
    if (F.Crosses && F.Cycles - Fetch.front().Cycles >= MinCrossingCycles)
      return F.Crosses;
  return std::nullopt;
}

/// Two blocks a cycle where the front end takes two jumps a cycle; none (one) else.
std::optional<unsigned> fetchBlocksPerCycle(const std::vector<FetchCycles> &Fetch) {
  return takesTwoJumpsACycle(Fetch) ? std::optional<unsigned>(2) : std::nullopt;
}

/// The operations a line delivers at once, from \p FrontEnd: the last line loop
/// before the first that takes MinLineOpsCycles more than the one before it (Zen 5: 12
/// in 1.5 cycles, 13 in 3); none where no loop does.
std::optional<unsigned> lineOps(const std::vector<LoopCycles> &FrontEnd) {
  std::optional<std::pair<unsigned, double>> Before;
  for (const LoopCycles &L : FrontEnd) {
    llvm::StringRef Name = L.Name;
    unsigned Ops = 0;
    if (!Name.consume_front(LineOpsLoop) || Name.getAsInteger(10, Ops))
      continue;
    if (Before && L.Cycles - Before->second >= MinLineOpsCycles)
      return Before->first;
    Before = std::pair(Ops, L.Cycles);
  }
  return std::nullopt;
}

/// A split jump's cycles, from \p FrontEnd: its loop's over the whole jump's, rounded,
/// where half a cycle or more (Zen 5: 1.98 against 1.12).
std::optional<unsigned> splitJump(const std::vector<LoopCycles> &FrontEnd) {
  std::optional<double> Split = cyclesOf(FrontEnd, SplitJumpLoop),
                        Whole = cyclesOf(FrontEnd, WholeJumpLoop);
  if (!Split || !Whole || *Split - *Whole < MinCrossingCycles)
    return std::nullopt;
  return unsigned(std::lround(*Split - *Whole));
}

/// The plain stores a cycle, from \p Loops: the store-throughput loop's stores over its
/// cycles, rounded (Zen 5: 16 in 8.0 cycles, 2; Zen 4's model: 1).
std::optional<unsigned> storesPerCycle(const std::vector<LoopCycles> &Loops) {
  std::optional<double> Cycles = cyclesOf(Loops, StoreThroughputLoop);
  if (!Cycles || !(*Cycles > 0))
    return std::nullopt;
  return unsigned(std::max(1L, std::lround(StoreThroughputStores / *Cycles)));
}

} // namespace

CoreProfile profileFromLoops(const std::vector<LoopCycles> &Loops,
                             const std::vector<FetchCycles> &Fetch,
                             const std::vector<LoopCycles> &FrontEnd) {
  CoreProfile P;
  P.Source = "calibrate";
  P.RenamedReloadCycles = renamedReload(Loops);
  P.ForwardedReloadCycles = forwardedReload(Loops);
  P.SlotOperationCycles = slotOperation(Loops);
  P.FetchLineBytes = fetchLine(Fetch);
  // The front end's other numbers count in its line.
  if (P.FetchLineBytes) {
    P.FetchBlocksPerCycle = fetchBlocksPerCycle(Fetch);
    P.LineOps = lineOps(FrontEnd);
    P.SplitJumpCycles = splitJump(FrontEnd);
  }
  P.SpeculativeLoads = speculativeLoads(Loops);
  P.StoresPerCycle = storesPerCycle(Loops);
  return P;
}

llvm::Expected<Calibration> calibrateHost(const CalibrateSettings &Settings) {
#if !defined(__x86_64__)
  (void)Settings;
  return stageError("calibrate measures x86-64 cores only: this host is another");
#else
  Calibration C;
  C.Host = hostCpuName();
  // Every loop in each round, the clock's among them (LoopTimer).
  LoopTimer Timer;
  size_t Clock = Timer.add(multiplyChain(), Settings.Iterations);
  std::vector<StoreLoadLoop> Loops = storeLoadLoops();
  std::vector<size_t> LoopIndex, FetchIndex;
  for (const StoreLoadLoop &L : Loops)
    LoopIndex.push_back(Timer.add(L.Body, Settings.Iterations));
  // A pass runs 16 blocks: a quarter as many passes as the loops above iterate.
  uint64_t Passes = std::max<uint64_t>(1, Settings.Iterations / 4);
  std::vector<FetchLoop> Fetch = fetchLoops();
  for (const FetchLoop &F : Fetch)
    FetchIndex.push_back(Timer.add(F.Body, Passes));
  std::vector<FrontEndLoop> FrontEnd = frontEndLoops();
  std::vector<size_t> FrontEndIndex;
  for (const FrontEndLoop &F : FrontEnd)
    FrontEndIndex.push_back(Timer.add(F.Body, Settings.Iterations));
  Timer.run(Settings.Runs);

  double Seconds = Timer.fastest(Clock);
  if (!(Seconds > 0))
    return stageError("calibrate: the clock loop took no measurable CPU time");
  C.ClockGHz = chainClockGHz(Settings.Iterations, Seconds);
  for (size_t I = 0; I < Loops.size(); ++I) {
    C.Loops.push_back(Loops[I].Loop);
    C.Loops.back().Cycles =
        Timer.fastest(LoopIndex[I]) * C.ClockGHz * 1e9 / double(Settings.Iterations);
  }
  for (size_t I = 0; I < Fetch.size(); ++I) {
    C.Fetch.push_back(Fetch[I].Loop);
    C.Fetch.back().Cycles =
        Timer.fastest(FetchIndex[I]) * C.ClockGHz * 1e9 / double(Passes * 16);
  }
  for (size_t I = 0; I < FrontEnd.size(); ++I) {
    C.FrontEnd.push_back(FrontEnd[I].Loop);
    C.FrontEnd.back().Cycles =
        Timer.fastest(FrontEndIndex[I]) * C.ClockGHz * 1e9 / double(Settings.Iterations);
  }
  C.Profile = profileFromLoops(C.Loops, C.Fetch, C.FrontEnd);
  C.Profile.MeasuredOn = C.Host;
  return C;
#endif
}

Json calibrationJson(const Calibration &C, llvm::StringRef CPU) {
  Json Out = coreProfileJson(C.Profile, CPU);
  Json Loops = Json::array();
  for (const LoopCycles &L : C.Loops) {
    Json Loop = {{"name", L.Name}, {"code", L.Code}, {"cycles", std::round(L.Cycles * 100) / 100}};
    if (hasStoreToLoadPath(L))
      Loop["store_to_load_cycles"] = std::round(L.path() * 100) / 100;
    Loops.push_back(std::move(Loop));
  }
  Json Fetch = Json::array();
  for (const FetchCycles &F : C.Fetch)
    Fetch.push_back({{"name", F.Name},
                     {"offset", F.Offset},
                     {"crosses", F.Crosses},
                     {"cycles_per_block", std::round(F.Cycles * 100) / 100}});
  Json FrontEnd = Json::array();
  for (const LoopCycles &L : C.FrontEnd)
    FrontEnd.push_back(
        {{"name", L.Name}, {"code", L.Code}, {"cycles", std::round(L.Cycles * 100) / 100}});
  Out["measurements"] = {{"clock_ghz", std::round(C.ClockGHz * 1000) / 1000},
                         {"loops", Loops},
                         {"fetch_loops", Fetch},
                         {"front_end_loops", FrontEnd}};
  return Out;
}

} // namespace mlgo
