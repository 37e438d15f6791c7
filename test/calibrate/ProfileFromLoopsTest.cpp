/// \file
/// From timed loops to a core profile: the rules of docs/calibrate.md, on the cycles
/// `mlgo-ra calibrate` measured on an Intel Xeon of family 6 model 207 and on variants of
/// them. (calibrate itself runs the loops in test/cli/calibrate.sh.)
#include "Calibrate.h"

#include <catch2/catch.hpp>

using namespace mlgo;

namespace {

/// The store-to-load loops as measured on the Intel core: a reload into the stored
/// register is fast, one into another register forwards.
std::vector<LoopCycles> intelLoops() {
  return {{"spill_reload", "", 1.74, 1},      {"spill_reload_32", "", 2.24, 1},
          {"push_pop", "", 1.68, 1},          {"spill_reload_other", "", 6.64, 2},
          {"folded_reload", "", 2.80, 2},     {"pointer_store_load", "", 1.80, 1},
          {"slot_operation", "", 0.95, 1}};
}

/// The front-end loops as measured there: a cycle more across a 64-byte line only.
std::vector<FetchCycles> intelFetch() {
  return {{"block_in_line", 0, 0, 0.84},
          {"block_across_16", 10, 16, 0.79},
          {"block_across_32", 26, 32, 0.78},
          {"block_across_64", 58, 64, 2.03}};
}

LoopCycles &loop(std::vector<LoopCycles> &Loops, const std::string &Name) {
  for (LoopCycles &L : Loops)
    if (L.Name == Name)
      return L;
  FAIL("no loop " << Name);
  return Loops.front();
}

} // namespace

TEST_CASE("a core fast only for a reload into the stored register forwards", "[calibrate]") {
  CoreProfile P = profileFromLoops(intelLoops(), intelFetch());
  CHECK_FALSE(P.RenamedReloadCycles);
  REQUIRE(P.FetchLineBytes);
  CHECK(*P.FetchLineBytes == 64);
}

TEST_CASE("a core that renames both reloads renames, at the slower one's cycles",
          "[calibrate]") {
  auto Loops = intelLoops();
  loop(Loops, "spill_reload_other").Cycles = 2.0 + 1.4; // path 1.4
  CoreProfile P = profileFromLoops(Loops, intelFetch());
  REQUIRE(P.RenamedReloadCycles);
  CHECK(*P.RenamedReloadCycles == 1);
  loop(Loops, "spill_reload").Cycles = 1.0; // path 0; the other's 1.4 still counts
  CHECK(*profileFromLoops(Loops, intelFetch()).RenamedReloadCycles == 1);
  loop(Loops, "spill_reload_other").Cycles = 2.2; // path 0.2
  CHECK(*profileFromLoops(Loops, intelFetch()).RenamedReloadCycles == 0);
  loop(Loops, "spill_reload").Cycles = 0.5; // faster than its xor: no negative cycles
  CHECK(*profileFromLoops(Loops, intelFetch()).RenamedReloadCycles == 0);
}

TEST_CASE("forwarding is a path over 2.5 cycles in either loop", "[calibrate]") {
  auto Loops = intelLoops();
  loop(Loops, "spill_reload_other").Cycles = 2.0 + 2.5;
  CHECK(profileFromLoops(Loops, intelFetch()).RenamedReloadCycles == 3u); // 2.5 rounds up
  loop(Loops, "spill_reload_other").Cycles = 2.0 + 2.6;
  CHECK_FALSE(profileFromLoops(Loops, intelFetch()).RenamedReloadCycles);
  loop(Loops, "spill_reload_other").Cycles = 2.0;
  loop(Loops, "spill_reload").Cycles = 1.0 + 4.6;
  CHECK_FALSE(profileFromLoops(Loops, intelFetch()).RenamedReloadCycles);
}

TEST_CASE("the forwarding latency is the slowest store-to-load path", "[calibrate]") {
  auto Loops = intelLoops();
  // spill_reload_other's path, 4.64 cycles, is the slowest.
  CHECK(profileFromLoops(Loops, intelFetch()).ForwardedReloadCycles == 5u);
  // A core that renames plain reloads but not folded ones (Zen 4: 6.8 cycles).
  loop(Loops, "spill_reload_other").Cycles = 2.0;
  loop(Loops, "folded_reload").Cycles = 2.0 + 6.8;
  CoreProfile Renaming = profileFromLoops(Loops, intelFetch());
  CHECK(Renaming.RenamedReloadCycles == 1u);
  CHECK(Renaming.ForwardedReloadCycles == 7u);
  // Every path as fast as renaming: the forwarding latency is still the slowest path.
  loop(Loops, "folded_reload").Cycles = 2.0 + 2.5;
  CHECK(profileFromLoops(Loops, intelFetch()).ForwardedReloadCycles == 3u);
  CHECK_FALSE(profileFromLoops({}, intelFetch()).ForwardedReloadCycles); // none measured
}

TEST_CASE("a core that renames every reload, folded ones too, forwards in 0 cycles",
          "[calibrate]") {
  // As measured on Zen 5 (AMD EPYC family 26 model 2): every path 0, and the front end
  // takes a jump in 0.65 cycles, two a cycle at times; a line delivers 12 operations at
  // once, and a jump split from its compare across a line costs a cycle (the jump loops
  // as a program of their own measured them: docs/calibrate.md).
  std::vector<LoopCycles> Zen5 = {
      {"spill_reload", "", 1.00, 1},      {"spill_reload_32", "", 1.00, 1},
      {"push_pop", "", 1.01, 1},          {"spill_reload_other", "", 1.99, 2},
      {"folded_reload", "", 2.00, 2},     {"pointer_store_load", "", 1.01, 1},
      {"slot_operation", "", 1.00, 1},    {"pointer_chase", "", 3.99, 0},
      {"load_past_store", "", 4.00, 0}, {"store_throughput", "", 8.05, 0}};
  std::vector<FetchCycles> Fetch = {{"block_in_line", 0, 0, 0.65},
                                    {"block_across_16", 10, 16, 0.54},
                                    {"block_across_32", 26, 32, 0.56},
                                    {"block_across_64", 58, 64, 1.27}};
  std::vector<LoopCycles> FrontEnd = {
      {"line_ops_8", "", 1.13, 0},  {"line_ops_10", "", 1.25, 0}, {"line_ops_11", "", 1.37, 0},
      {"line_ops_12", "", 1.50, 0}, {"line_ops_13", "", 2.98, 0}, {"line_ops_14", "", 2.98, 0},
      {"line_ops_16", "", 2.97, 0}, {"line_ops_20", "", 2.96, 0}, {"split_jump", "", 1.98, 0},
      {"whole_jump", "", 1.12, 0}};
  CoreProfile P = profileFromLoops(Zen5, Fetch, FrontEnd);
  CHECK(P.RenamedReloadCycles == 0u);
  CHECK(P.ForwardedReloadCycles == 0u);
  CHECK(P.SlotOperationCycles == 0u);
  CHECK(P.SpeculativeLoads);
  CHECK(P.StoresPerCycle == 2u);
  CHECK(takesTwoJumpsACycle(Fetch));
  CHECK(P.FetchLineBytes == 64u);
  CHECK(P.FetchBlocksPerCycle == 2u);
  CHECK(P.LineOps == 12u);
  CHECK(P.SplitJumpCycles == 1u);
  // Without the line and jump loops, neither number; a whole jump as slow as the split
  // one costs nothing.
  CoreProfile Fetched = profileFromLoops(Zen5, Fetch);
  CHECK_FALSE(Fetched.LineOps);
  CHECK_FALSE(Fetched.SplitJumpCycles);
  FrontEnd.back().Cycles = 1.98;
  CHECK_FALSE(profileFromLoops(Zen5, Fetch, FrontEnd).SplitJumpCycles);
  // What calibrate measures is the built-in profile of znver5, but for the store
  // throughput, which the built-in profile leaves out (it ranked the arena worse).
  CoreProfile BuiltIn = builtInCoreProfile("znver5");
  CHECK(BuiltIn.Source == "built-in znver5");
  CHECK_FALSE(BuiltIn.StoresPerCycle);
  P.StoresPerCycle.reset();
  CHECK(BuiltIn.identity() == P.identity());
}

TEST_CASE("Zen 3 renames stack slots and forwards a folded reload in 7 cycles",
          "[calibrate]") {
  // As measured on Zen 3 (AMD EPYC family 25 model 1, 3.18 GHz); of its front end only
  // the block within a line (1.12 cycles) was kept, and a line of 64 bytes written.
  std::vector<LoopCycles> Zen3 = {
      {"spill_reload", "", 1.16, 1},      {"spill_reload_32", "", 1.15, 1},
      {"push_pop", "", 1.16, 1},          {"spill_reload_other", "", 2.02, 2},
      {"folded_reload", "", 8.82, 2},     {"pointer_store_load", "", 1.20, 1},
      {"slot_operation", "", 1.11, 1},    {"pointer_chase", "", 4.06, 0},
      {"load_past_store", "", 4.04, 0}, {"store_throughput", "", 8.51, 0}};
  CoreProfile P = profileFromLoops(Zen3, intelFetch());
  CHECK(P.RenamedReloadCycles == 0u);
  CHECK(P.ForwardedReloadCycles == 7u);
  CHECK(P.SlotOperationCycles == 0u);
  CHECK(P.SpeculativeLoads);
  CHECK(P.StoresPerCycle == 2u);
  CHECK(P.FetchLineBytes == 64u);
  // The built-in profile of znver3 is that, but for the store throughput, left out as
  // for Zen 5.
  CoreProfile BuiltIn = builtInCoreProfile("znver3");
  CHECK(BuiltIn.Source == "built-in znver3");
  CHECK(BuiltIn.MeasuredOn == "AuthenticAMD family 25 model 1");
  P.StoresPerCycle.reset();
  CHECK(BuiltIn.identity() == P.identity());
}

TEST_CASE("Granite Rapids renames every path, through another pointer too", "[calibrate]") {
  // As measured on a Granite Rapids core (KVM's family 6 model 167, 4.04 GHz): every
  // store-to-load path 0, a load 5 cycles, and a block across a 64-byte line a cycle
  // more.
  std::vector<LoopCycles> Loops = {
      {"spill_reload", "", 1.00, 1},      {"spill_reload_32", "", 1.00, 1},
      {"push_pop", "", 1.00, 1},          {"spill_reload_other", "", 1.00, 2},
      {"folded_reload", "", 2.00, 2},     {"pointer_store_load", "", 1.00, 1},
      {"slot_operation", "", 1.00, 1},    {"pointer_chase", "", 5.00, 0},
      {"load_past_store", "", 4.99, 0}, {"store_throughput", "", 8.00, 0}};
  std::vector<FetchCycles> Fetch = {{"block_in_line", 0, 0, 0.92},
                                    {"block_across_16", 10, 16, 0.97},
                                    {"block_across_32", 26, 32, 0.96},
                                    {"block_across_64", 58, 64, 1.77}};
  CoreProfile P = profileFromLoops(Loops, Fetch);
  CHECK(P.RenamedReloadCycles == 0u);
  CHECK(P.ForwardedReloadCycles == 0u);
  CHECK(P.SlotOperationCycles == 0u);
  CHECK(P.SpeculativeLoads);
  CHECK(P.StoresPerCycle == 2u);
  CHECK(P.FetchLineBytes == 64u);
  // LLVM's Golden Cove model lets two stores through already: the built-in profile
  // leaves them out.
  CoreProfile BuiltIn = builtInCoreProfile("graniterapids");
  CHECK(BuiltIn.Source == "built-in graniterapids");
  P.StoresPerCycle.reset();
  CHECK(BuiltIn.identity() == P.identity());
}

TEST_CASE("the stores a cycle are the throughput loop's 16 over its cycles, rounded",
          "[calibrate]") {
  auto Loops = intelLoops();
  CHECK_FALSE(profileFromLoops(Loops, intelFetch()).StoresPerCycle); // not measured
  Loops.push_back({"store_throughput", "", 16.1, 0}); // one a cycle, as Zen 4's model says
  CHECK(profileFromLoops(Loops, intelFetch()).StoresPerCycle == 1u);
  loop(Loops, "store_throughput").Cycles = 10.5; // 1.52 a cycle
  CHECK(profileFromLoops(Loops, intelFetch()).StoresPerCycle == 2u);
  loop(Loops, "store_throughput").Cycles = 40; // slower than one a cycle: still one
  CoreProfile P = profileFromLoops(Loops, intelFetch());
  CHECK(P.StoresPerCycle == 1u);
  // Its cycles are no store-to-load path: the forwarding latency stays the reloads'.
  CHECK(P.ForwardedReloadCycles == 5u);
}

TEST_CASE("an operation on a slot has the stored value its loop's path later, not a reload's",
          "[calibrate]") {
  auto Loops = intelLoops();
  CHECK(profileFromLoops(Loops, intelFetch()).SlotOperationCycles == 0u); // faster than its add
  loop(Loops, "slot_operation").Cycles = 1.0 + 1.3; // Zen 4's
  CHECK(profileFromLoops(Loops, intelFetch()).SlotOperationCycles == 1u);
  // A core whose add waits for forwarding (6 cycles) says so, and that is not the
  // reloads' forwarding latency.
  loop(Loops, "slot_operation").Cycles = 1.0 + 6.2;
  CoreProfile P = profileFromLoops(Loops, intelFetch());
  CHECK(P.SlotOperationCycles == 6u);
  CHECK(P.ForwardedReloadCycles == 5u);
  Loops.pop_back(); // calibrate of an older mlgo-ra: not measured
  CHECK_FALSE(profileFromLoops(Loops, intelFetch()).SlotOperationCycles);
}

TEST_CASE("the fetch line is the smallest crossing that costs half a cycle", "[calibrate]") {
  auto Fetch = intelFetch();
  Fetch[2].Cycles = 0.84 + 0.51; // across 32 bytes: half a cycle more
  CHECK(profileFromLoops(intelLoops(), Fetch).FetchLineBytes == 32u);
  Fetch[2].Cycles = 0.84 + 0.49;
  CHECK(profileFromLoops(intelLoops(), Fetch).FetchLineBytes == 64u);
  Fetch[3].Cycles = 1.2; // no crossing costs: no line
  CHECK_FALSE(profileFromLoops(intelLoops(), Fetch).FetchLineBytes);
  CHECK_FALSE(profileFromLoops(intelLoops(), Fetch).FetchBlocksPerCycle);
  Fetch = intelFetch();
  Fetch[0].Cycles = 0.7; // two taken jumps a cycle: two blocks a cycle, the same line
  CHECK(profileFromLoops(intelLoops(), Fetch).FetchLineBytes == 64u);
  CHECK(profileFromLoops(intelLoops(), Fetch).FetchBlocksPerCycle == 2u);
  CHECK_FALSE(profileFromLoops(intelLoops(), intelFetch()).FetchBlocksPerCycle);
  CHECK_FALSE(profileFromLoops(intelLoops(), {}).FetchLineBytes);
}

TEST_CASE("no store-to-load loops: no renaming", "[calibrate]") {
  CHECK_FALSE(profileFromLoops({}, intelFetch()).RenamedReloadCycles);
}

TEST_CASE("loads speculate where a store behind a chase costs it less than 4.5 cycles",
          "[calibrate]") {
  // Not measured (profiles of loops before the chase): loads wait.
  CHECK_FALSE(profileFromLoops(intelLoops(), intelFetch()).SpeculativeLoads);
  auto Loops = intelLoops();
  // Zen 4: 4.0 cycles for the chase with or without the store.
  Loops.push_back({"pointer_chase", "", 4.0, 0});
  Loops.push_back({"load_past_store", "", 4.0, 0});
  CoreProfile Zen4 = profileFromLoops(Loops, intelFetch());
  CHECK(Zen4.SpeculativeLoads);
  // The chase's 4 cycles are no forwarding: the forwarding latency stays the reloads'.
  CHECK(Zen4.ForwardedReloadCycles == profileFromLoops(intelLoops(), intelFetch())
                                          .ForwardedReloadCycles);
  loop(Loops, "load_past_store").Cycles = 4.0 + 4.4;
  CHECK(profileFromLoops(Loops, intelFetch()).SpeculativeLoads);
  // A core that waits for the multiplies' 9 cycles.
  loop(Loops, "load_past_store").Cycles = 4.0 + 9.0;
  CHECK_FALSE(profileFromLoops(Loops, intelFetch()).SpeculativeLoads);
}
