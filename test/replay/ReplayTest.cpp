// Replay on a real recording of the bundled workload: refilling the trace with the
// recorded binary's own code gives back exactly the traced instructions, address for
// address, and a binary compared with itself has a predicted speedup of exactly 0.
#include "TestSupport.h"
#include "TracedAddresses.h"
#include "replay/Replay.h"
#include "replay/refill/Refill.h"
#include "support/Error.h"
#include "trace/SegmentTrace.h"
#include "trace/Trace.h"
#include "trace/TraceProfile.h"


using namespace mlgo;
using namespace mlgo::test;

namespace {

#ifdef MLGO_TEST_VALGRIND_LIB_DIR

struct AddressSink : RefillSink {
  explicit AddressSink(uint64_t From = 0) { HandOverFrom = From; }
  std::vector<uint64_t> Addresses;
  /// Per event handed over: its trace position and instructions.
  std::vector<std::pair<uint64_t, size_t>> Events;
  llvm::Error onCode(uint32_t, const RefilledCode &Code) override {
    Addresses.insert(Addresses.end(), Code.Addresses.begin(), Code.Addresses.end());
    Events.emplace_back(Code.Position, Code.Instructions.size());
    return llvm::Error::success();
  }
};

struct RecordedWorkload {
  std::string Binary, Trace;
  std::vector<uint64_t> MappedAddresses;
};

/// Builds the workload, runs it at \p Scale under the collector and derives its trace.
RecordedWorkload recordWorkload(const std::string &Dir, const char *Scale) {
  CommandResult Built = runShell(std::string(SourceDir) + "/examples/build-workload.sh " +
                                 shellQuote(Dir + "/build"));
  INFO(Built.Output);
  REQUIRE(Built.ExitCode == 0);
  RecordedWorkload W{Dir + "/build/workload", Dir + "/workload.bbtrace", {}};
  CommandResult Traced = runShell(
      "VALGRIND_LIB=" + shellQuote(MLGO_TEST_VALGRIND_LIB_DIR) + " " +
          shellQuote(MLGO_TEST_VALGRIND) + " -q --tool=mlgotrace --mlgotrace-out=raw.bin " +
          shellQuote(W.Binary) + " " + Scale,
      Dir);
  INFO(Traced.Output);
  REQUIRE(Traced.ExitCode == 0);

  W.MappedAddresses = deriveTraceWithAddresses(Dir + "/raw.bin", W.Binary, W.Trace);
  return W;
}

#endif

} // namespace

#ifdef MLGO_TEST_VALGRIND_LIB_DIR
TEST_CASE("refilling a trace with its own binary gives back every traced address",
          "[replay]") {
  initializeTargets();
  RecordedWorkload W = recordWorkload(makeTempDir("replay"), "0.02");
  REQUIRE(W.MappedAddresses.size() > 100000);

  CodeImage Image = requireOk(CodeImage::load(W.Binary));
  auto Reader = requireOk(SegmentTraceReader::open(W.Trace));
  std::vector<bool> All(Reader->header().Functions.size(), true);
  VariantCode Code =
      VariantCode::match(Reader->header(), Reader->segments(), All, Image, nullptr);
  CHECK(Code.mismatches().empty());
  AddressSink Sink;
  RefillCounts Counts = requireOk(refillTrace(*Reader, Code, Sink));
  CHECK(Counts.Refilled == W.MappedAddresses.size());
  CHECK(Counts.Refilled + Counts.UnmappedSkipped == Counts.TraceInstructions);
  // Compared as a whole: a difference shows as a count, not a million lines.
  CHECK(Sink.Addresses == W.MappedAddresses);

  // A sink that looks from the middle event on (a chunk's worker) is handed exactly
  // the events that start there or later, and the counts stay the whole trace's.
  uint64_t Middle = Sink.Events[Sink.Events.size() / 2].first;
  size_t Later = 0;
  for (const auto &[Position, Instructions] : Sink.Events)
    Later += Position >= Middle ? Instructions : 0;
  REQUIRE(Later > 0);
  REQUIRE(Later < Sink.Addresses.size());
  AddressSink Tail(Middle);
  auto Again = requireOk(SegmentTraceReader::open(W.Trace));
  RefillCounts TailCounts = requireOk(refillTrace(*Again, Code, Tail));
  CHECK(TailCounts.Refilled == Counts.Refilled);
  CHECK(TailCounts.TraceInstructions == Counts.TraceInstructions);
  CHECK(TailCounts.Mispredicted == Counts.Mispredicted);
  CHECK(Tail.Addresses.size() == Later);
  CHECK(std::equal(Tail.Addresses.begin(), Tail.Addresses.end(),
                   Sink.Addresses.end() - static_cast<std::ptrdiff_t>(Later)));

  // The simulation retires every refilled instruction.
  ReplayOptions Opts;
  Opts.Trace = W.Trace;
  Opts.ShowProgress = false;
  ReplayResult R = requireOk(runReplay(Opts, W.Binary));
  CHECK(R.Instructions == W.MappedAddresses.size());
  CHECK(R.TraceInstructions == Counts.TraceInstructions);
  CHECK(R.Threads == 1);
  uint64_t Cycles = 0, Instructions = 0;
  for (const FunctionCost &F : R.Functions) {
    Cycles += F.Cycles;
    Instructions += F.Instructions;
  }
  CHECK(Cycles == R.Cycles);
  CHECK(Instructions == R.Instructions);
  CHECK(R.Functions.front().Function == "wl_hash_kernel");
  CHECK(R.Cycles > R.Instructions / 8);

  // The binary compared with itself: the same cycles, so a speedup of exactly 0.
  ReplayComparison C = requireOk(compareReplays(Opts, W.Binary, W.Binary));
  CHECK(C.Baseline.Cycles == R.Cycles);
  CHECK(C.Candidate.Cycles == R.Cycles);
  CHECK(C.speedup() == 0.0);
  CHECK(C.deltas().front().delta() == 0);
}
#endif

#ifdef MLGO_TEST_VALGRIND_LIB_DIR
TEST_CASE("replay --unmapped replay models every traced instruction", "[replay]") {
  initializeTargets();
  std::string Dir = makeTempDir("replay-unmapped");
  TraceRecordOptions Record;
  Record.Binary = buildTestProgram("libc_loops", Dir);
  Record.Command = {Record.Binary};
  Record.Output = Dir + "/loops.bbtrace";
  Record.Valgrind = MLGO_TEST_VALGRIND;
  Record.ValgrindLibDir = MLGO_TEST_VALGRIND_LIB_DIR;
  Record.ShowProgress = false;
  Record.KeepUnmappedCode = true;
  requireOk(runTraceRecord(Record));
  TraceProfile Profile = requireOk(profileTrace(Record.Output));
  REQUIRE(Profile.UnmappedCodeInstructions == Profile.UnmappedInstructions);

  ReplayOptions Opts;
  Opts.Trace = Record.Output;
  Opts.ShowProgress = false;
  Opts.Unmapped = UnmappedPolicy::Replay;
  ReplayResult R = requireOk(runReplay(Opts, Record.Binary));
  // Exactly every traced instruction, mapped and unmapped: simulated, or an iteration of
  // a rep instruction (memcpy's rep movsb) folded into the one simulated.
  CHECK(R.Instructions + R.FoldedIterations == Profile.Instructions);
  CHECK(R.TraceInstructions == Profile.Instructions);
  CHECK(R.UnmappedReplayed == Profile.UnmappedInstructions);
  CHECK(R.UnmappedSkipped == 0);
  CHECK(R.modeledShare() == 1.0);
  // The modules' pseudo-functions hold the unmapped instructions, libc most of them.
  uint64_t Cycles = 0, Unmapped = 0, Libc = 0;
  for (const FunctionCost &F : R.Functions) {
    Cycles += F.Cycles;
    if (llvm::StringRef(F.Function).starts_with("[unmapped] "))
      Unmapped += F.Instructions;
    if (F.Function == "[unmapped] libc.so.6")
      Libc = F.Instructions;
  }
  CHECK(Cycles == R.Cycles);
  CHECK(Unmapped + R.FoldedIterations == R.UnmappedReplayed);
  CHECK(Libc * 2 > R.Instructions);
  // Iterations are not instructions: a few hundred per memcpy, not a few hundred
  // thousand, and at most one simulated instruction per series of them.
  CHECK(R.FoldedIterations > 0);
  CHECK(R.FoldedIterations * 100 < R.Instructions);
  CHECK(R.Cycles < R.Instructions);

  // Skipped, the same trace models only the mapped instructions, in fewer cycles.
  Opts.Unmapped = UnmappedPolicy::Skip;
  ReplayResult Skipped = requireOk(runReplay(Opts, Record.Binary));
  CHECK(Skipped.Instructions == Profile.Instructions - Profile.UnmappedInstructions);
  CHECK(Skipped.UnmappedSkipped == Profile.UnmappedInstructions);
  CHECK(Skipped.Cycles < R.Cycles);

  // The same unmapped code runs in both: a binary against itself is still exactly 0.
  Opts.Unmapped = UnmappedPolicy::Replay;
  ReplayComparison C = requireOk(compareReplays(Opts, Record.Binary, Record.Binary));
  CHECK(C.Baseline.Cycles == R.Cycles);
  CHECK(C.Candidate.Cycles == R.Cycles);
  CHECK(C.speedup() == 0.0);

  // A trace that only counts its unmapped code has none to replay.
  Record.KeepUnmappedCode = false;
  Record.Output = Dir + "/counted.bbtrace";
  requireOk(runTraceRecord(Record));
  Opts.Trace = Record.Output;
  CHECK(requireError(runReplay(Opts, Record.Binary)) ==
        Record.Output + ": holds no bytes of unmapped code to replay (record it with trace "
                        "record --keep-unmapped, or use --unmapped skip)");
}
#endif
