// trace record end to end on a real multi-threaded program: one stream per thread, each
// worker's work in its own thread, and every instruction accounted for exactly.
#include "SegmentTrace.h"
#include "TestSupport.h"
#include "Trace.h"
#include "code/CodeImage.h"
#include "code/Disassembler.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Program.h"

#include <map>
#include <set>

extern char **environ;

using namespace mlgo;
using namespace mlgo::test;

TEST_CASE("a stream that cannot be decoded stops the recording at once", "[trace]") {
  // A stand-in for Valgrind that writes a bad stream far larger than the pipe holds:
  // trace record must stop it, not wait for it while it blocks on the full pipe.
  std::string Dir = makeTempDir("record-bad-stream");
  writeFile(Dir + "/lib/mlgotrace-amd64-linux", "");
  writeFile(Dir + "/valgrind",
            "#!/bin/sh\n"
            "for a; do case $a in --mlgotrace-fd=*) fd=${a#--mlgotrace-fd=};; esac; done\n"
            "{ printf 'MLGOTRCE\\001\\000\\000\\000\\001\\000\\000\\000\\003\\001'\n"
            "  head -c 8000000 /dev/zero | tr '\\000' ' '; } >&$fd\n");
  writeFile(Dir + "/p.c", "int main(void) { return 0; }\n");
  REQUIRE(runShell("chmod +x valgrind && " + std::string(ClangPath) +
                       " -O1 -fbasic-block-address-map p.c -o p",
                   Dir)
              .ExitCode == 0);
  initializeTargets();
  TraceRecordOptions Opts;
  Opts.Binary = Dir + "/p";
  Opts.Command = {Dir + "/p"};
  Opts.Output = Dir + "/p.bbtrace";
  Opts.Valgrind = Dir + "/valgrind";
  Opts.ValgrindLibDir = Dir + "/lib";
  Opts.ShowProgress = false;
  // Each space is a run through exit 16, which no superblock defines.
  CHECK_THAT(requireError(runTraceRecord(Opts)),
             Catch::EndsWith("offset 18: run through exit 16, which no superblock defines"));
  CHECK(!fileExists(Opts.Output));
}

#ifdef MLGO_TEST_VALGRIND_LIB_DIR
namespace {

// Three workers with distinct, deterministic work in their own functions, all alive at
// once (Valgrind reuses the id of a thread that exited for the next one created), each
// running for many of Valgrind's scheduling quanta so that they interleave.
const char *ThreadedProgram = R"(
#include <pthread.h>
#include <stdint.h>
static pthread_barrier_t started;
__attribute__((noinline)) uint64_t work_sum(long n) {
  uint64_t s = 0;
  for (long i = 0; i < n; ++i)
    s += (uint64_t)i * i ^ (s >> 3);
  return s;
}
__attribute__((noinline)) uint64_t work_hash(long n) {
  uint64_t h = 1469598103934665603ull;
  for (long i = 0; i < n; ++i) {
    h ^= (uint64_t)i & 0xff;
    h *= 1099511628211ull;
  }
  return h;
}
__attribute__((noinline)) uint64_t work_collatz(long n) {
  uint64_t steps = 0;
  for (long i = 1; i <= n; ++i)
    for (uint64_t x = i; x != 1; ++steps)
      x = x & 1 ? 3 * x + 1 : x / 2;
  return steps;
}
static void *run_sum(void *arg) {
  pthread_barrier_wait(&started);
  return (void *)work_sum(1000000);
}
static void *run_hash(void *arg) {
  pthread_barrier_wait(&started);
  return (void *)work_hash(2000000);
}
static void *run_collatz(void *arg) {
  pthread_barrier_wait(&started);
  return (void *)work_collatz(30000);
}
volatile uint64_t result;
int main(void) {
  void *(*workers[3])(void *) = {run_sum, run_hash, run_collatz};
  pthread_t threads[3];
  pthread_barrier_init(&started, 0, 3);
  for (int i = 0; i < 3; ++i)
    if (pthread_create(&threads[i], 0, workers[i], 0) != 0)
      return 1;
  for (int i = 0; i < 3; ++i) {
    void *r;
    pthread_join(threads[i], &r);
    result ^= (uint64_t)r;
  }
  return 0;
}
)";

/// The environment trace record gives Valgrind (ld.so's instruction count depends on it).
std::vector<std::string> recordEnvironment() {
  std::vector<std::string> Env;
  for (char **E = environ; *E; ++E)
    if (!llvm::StringRef(*E).starts_with("VALGRIND_LIB="))
      Env.push_back(*E);
  Env.push_back(std::string("VALGRIND_LIB=") + MLGO_TEST_VALGRIND_LIB_DIR);
  return Env;
}

/// Lackey's count of guest instructions for \p Program, run as trace record runs it:
/// the same environment and scheduling, and the flags mlgotrace forces.
uint64_t lackeyCount(const std::string &Program, const std::string &Dir) {
  std::vector<std::string> Args = {MLGO_TEST_VALGRIND, "--tool=lackey", "-q",
                                   "--fair-sched=yes", "--vex-guest-chase=no",
                                   "--vex-iropt-unroll-thresh=0",
                                   "--log-file=" + Dir + "/lackey.log", Program};
  std::vector<llvm::StringRef> ArgRefs(Args.begin(), Args.end());
  std::vector<std::string> Env = recordEnvironment();
  std::vector<llvm::StringRef> EnvRefs(Env.begin(), Env.end());
  std::string Err;
  int RC = llvm::sys::ExecuteAndWait(Args[0], ArgRefs, EnvRefs, {}, 0, 0, &Err);
  INFO(Err);
  REQUIRE(RC == 0);
  std::string Log = readFile(Dir + "/lackey.log");
  size_t At = Log.find("guest instrs:");
  REQUIRE(At != std::string::npos);
  std::string Digits;
  for (char C : llvm::StringRef(Log).drop_front(At + 13).ltrim().take_until(
           [](char C) { return C == '\n'; }))
    if (llvm::isDigit(C))
      Digits.push_back(C);
  return std::stoull(Digits);
}

/// A quiet recording of \p Binary run without arguments, with the built tool.
TraceRecordOptions recordOptions(const std::string &Binary, const std::string &Output) {
  TraceRecordOptions Opts;
  Opts.Binary = Binary;
  Opts.Command = {Binary};
  Opts.Output = Output;
  Opts.Valgrind = MLGO_TEST_VALGRIND;
  Opts.ValgrindLibDir = MLGO_TEST_VALGRIND_LIB_DIR;
  Opts.ShowProgress = false;
  return Opts;
}

} // namespace

TEST_CASE("trace record follows each thread of a threaded program exactly", "[trace]") {
  initializeTargets();
  std::string Dir = makeTempDir("record-threads");
  writeFile(Dir + "/threads.c", ThreadedProgram);
  CommandResult Built = runShell(std::string(ClangPath) +
                                     " -O2 -fbasic-block-address-map -pthread threads.c "
                                     "-o threads",
                                 Dir);
  INFO(Built.Output);
  REQUIRE(Built.ExitCode == 0);
  std::string Program = Dir + "/threads";

  TraceRecordOptions Opts = recordOptions(Program, Dir + "/threads.bbtrace");
  TraceRecordResult Recorded = requireOk(runTraceRecord(Opts));
  CHECK(Recorded.ProgramExitCode == 0);

  // trace show: one stream per thread (main and three workers), adding up to the total.
  TraceSummary Summary = requireOk(summarizeTrace(Opts.Output));
  CHECK(Summary.Instructions == Recorded.Instructions);
  std::set<uint32_t> Threads;
  uint64_t SumOfThreads = 0;
  for (auto &[Thread, Count] : Summary.InstructionsByThread) {
    Threads.insert(Thread);
    SumOfThreads += Count;
  }
  CHECK(Threads == std::set<uint32_t>{1, 2, 3, 4});
  CHECK(SumOfThreads == Summary.Instructions);

  // Every event, with whole segments counted from the binary, per thread and function.
  CodeImage Image = requireOk(CodeImage::loadBinary(Program));
  auto Reader = requireOk(SegmentTraceReader::open(Opts.Output));
  REQUIRE(Reader->segments().size() == Image.segments().size());
  std::map<SegmentEvent::Kind, uint64_t> ByKind;
  std::map<std::string, std::map<uint32_t, uint64_t>> ByFunction; // function → thread →
  uint64_t Switches = 0;
  uint32_t Thread = 0, Previous = 0;
  SegmentEvent E;
  while (requireOk(Reader->next(Thread, E))) {
    Switches += Thread != Previous;
    Previous = Thread;
    uint64_t Count = E.Count;
    if (E.What == SegmentEvent::Segment) {
      Count = Image.segments()[E.Index].NumInstructions;
      if (E.Count != Count) // not REQUIRE: millions of passing assertions are slow
        FAIL("segment " << E.Index << " counted " << E.Count << " of " << Count);
    }
    ByKind[E.What] += Count;
    if (E.What != SegmentEvent::Unmapped) {
      const CodeSegment &S = Image.segments()[E.Index];
      ByFunction[Image.functions()[Image.blocks()[S.Block].Function].key()][Thread] += Count;
    }
  }
  uint64_t Total = 0;
  for (auto &[Kind, Count] : ByKind)
    Total += Count;
  CHECK(Total == Recorded.Instructions);
  CHECK(ByKind[SegmentEvent::Segment] > 30000000);
  // Valgrind's scheduler interleaved the workers many times, and the builder kept each
  // thread's open segment apart: nothing was cut into partial segments.
  CHECK(Switches > 10);
  CHECK(ByKind[SegmentEvent::PartialSegment] == 0);

  // Each worker's function ran, at least its loop iterations' worth, in exactly one
  // thread, its own: not the main thread, and not another worker's.
  std::set<uint32_t> WorkerThreads;
  for (auto [Function, Minimum] : std::vector<std::pair<std::string, uint64_t>>{
           {"work_sum", 1000000 * 3}, {"work_hash", 2000000 * 3},
           {"work_collatz", 30000 * 3}}) {
    INFO(Function);
    const std::map<uint32_t, uint64_t> &PerThread = ByFunction[Function];
    REQUIRE(PerThread.size() == 1);
    CHECK(PerThread.begin()->first != 1);
    CHECK(PerThread.begin()->second >= Minimum);
    WorkerThreads.insert(PerThread.begin()->first);
  }
  CHECK(WorkerThreads == std::set<uint32_t>{2, 3, 4});

  // Exact: whole segments (counted from the binary), partial segments, padding and
  // unmapped code add up to the collector's own count (trace record checks that the
  // events it wrote hold every instruction the tool counted; here, that count is
  // rebuilt from the events). Lackey, run the same way, agrees up to the scheduling:
  // which thread reaches the barrier last and whether a join waits move a few hundred
  // instructions from run to run (the workers' counts do not change).
  uint64_t Lackey = lackeyCount(Program, Dir);
  INFO("recorded " << Total << ", Lackey " << Lackey);
  CHECK(Total + 1000 > Lackey);
  CHECK(Lackey + 1000 > Total);
}

TEST_CASE("trace record --keep-unmapped keeps the code of every unmapped instruction",
          "[trace]") {
  initializeTargets();
  std::string Dir = makeTempDir("record-unmapped");
  TraceRecordOptions Opts =
      recordOptions(buildTestProgram("libc_loops", Dir), Dir + "/counted.bbtrace");
  TraceRecordResult Counted = requireOk(runTraceRecord(Opts));
  Opts.Output = Dir + "/kept.bbtrace";
  Opts.KeepUnmappedCode = true;
  TraceRecordResult Kept = requireOk(runTraceRecord(Opts));
  CHECK(Kept.UnmappedCodeKept);
  CHECK(!Counted.UnmappedCodeKept);
  CHECK(Counted.CodeChunks == 0);

  // The same run: the same instructions, per module and per block; only the unmapped
  // ones are now code.
  TraceSummary C = requireOk(summarizeTrace(Dir + "/counted.bbtrace"));
  TraceSummary K = requireOk(summarizeTrace(Dir + "/kept.bbtrace"));
  CHECK(K.Instructions == C.Instructions);
  CHECK(K.MappedInstructions == C.MappedInstructions);
  CHECK(K.HotBlocks == C.HotBlocks);
  CHECK(K.UnmappedByModule == C.UnmappedByModule);
  CHECK(!C.UnmappedCodeKept);
  CHECK(K.UnmappedCodeKept);
  CHECK(K.UnmappedCodeInstructions == K.Instructions - K.MappedInstructions);
  CHECK(K.CodeChunks == Kept.CodeChunks);
  // Most of the program's work is libc's.
  CHECK(K.UnmappedCodeInstructions * 2 > K.Instructions);

  // Every chunk decodes fully, each instruction in exactly its recorded length (LLVM
  // decodes a lock prefix as an instruction of its own: one recorded instruction may be
  // two decoded ones).
  auto Reader = requireOk(SegmentTraceReader::open(Dir + "/kept.bbtrace"));
  requireSuccess(forEachEvent(*Reader, [](uint32_t, const SegmentEvent &) {
    return llvm::Error::success();
  }));
  REQUIRE(Reader->chunks().size() == K.CodeChunks);
  auto Dis = requireOk(Disassembler::create(llvm::Triple("x86_64-linux-gnu")));
  uint64_t Instructions = 0, Bytes = 0;
  for (const CodeChunk &Chunk : Reader->chunks()) {
    uint32_t Offset = 0;
    for (uint8_t Length : Chunk.InstrLengths) {
      uint32_t End = Offset + Length;
      std::optional<DecodedInstruction> Decoded;
      while (Offset < End &&
             (Decoded = Dis->decode(llvm::ArrayRef(Chunk.Bytes).slice(Offset, End - Offset),
                                    Chunk.Address + Offset)))
        Offset += Decoded->Size;
      if (Offset != End) // not REQUIRE: thousands of them
        FAIL("chunk " << Chunk.Id << " in " << Reader->moduleName(Chunk.Module)
                      << ": the instruction at " << llvm::utohexstr(Chunk.Address + End - Length)
                      << " does not decode in its " << unsigned(Length) << " bytes");
      ++Instructions;
    }
    CHECK(Offset == Chunk.Bytes.size());
    Bytes += Chunk.Bytes.size();
  }
  CHECK(Bytes == K.CodeChunkBytes);
  INFO(Instructions << " instructions in " << K.CodeChunks << " chunks");
  CHECK(Instructions > 1000);
}
TEST_CASE("trace record counts which data loads read what a recent store wrote", "[trace]") {
  // chase's load reads what its previous iteration stored (all but the first); sum's
  // reads an array stored before chase's thousand stores.
  initializeTargets();
  std::string Dir = makeTempDir("record-loads");
  writeFile(Dir + "/p.c", R"(
#define N 1000
__attribute__((noinline)) void chase(volatile long *a, long n) {
  for (long i = 0; i < n; ++i)
    a[i + 1] = a[i] + 1;
}
__attribute__((noinline)) long sum(const long *b, long n) {
  long s = 0;
  for (long i = 0; i < n; ++i)
    s += b[i];
  return s;
}
static long b[N];
static volatile long a[N + 1];
int main(int argc, char **argv) {
  for (long i = 0; i < N; ++i)
    b[i] = i * argc;
  chase(a, N);
  return (int)(sum(b, N) + a[N]) & 1;
}
)");
  REQUIRE(runShell(std::string(ClangPath) +
                       " -O2 -fno-vectorize -fno-unroll-loops -fbasic-block-address-map p.c -o p",
                   Dir)
              .ExitCode == 0);
  TraceRecordOptions Opts = recordOptions(Dir + "/p", Dir + "/p.bbtrace");
  TraceRecordResult Result = requireOk(runTraceRecord(Opts));
  CHECK(Result.LoadDependencesKept);
  CHECK(readFile(Opts.Output)[8] == 3);

  auto Reader = requireOk(SegmentTraceReader::open(Opts.Output));
  REQUIRE(Reader->hasLoadDependences());
  std::map<std::string, LoadCounts> ByFunction;
  uint64_t Executions = 0, Dependent = 0, Loads = 0;
  for (const SegmentLoads &S : Reader->loadDependences()) {
    const std::string &Key =
        Reader->header().Functions[Reader->segments()[S.Segment].Function].Key;
    for (const LoadCounts &L : S.Loads) {
      ByFunction[Key].Executions += L.Executions;
      ByFunction[Key].Dependent += L.Dependent;
      Executions += L.Executions;
      Dependent += L.Dependent;
      Loads += L.Executions > 0;
    }
  }
  CHECK(ByFunction["chase"] == LoadCounts{1000, 999});
  CHECK(ByFunction["sum"] == LoadCounts{1000, 0});
  CHECK(Result.DataLoads == Loads);
  CHECK(Result.DataLoadExecutions == Executions);
  CHECK(Result.DependentExecutions == Dependent);

  // Without them: version 1, the same instructions.
  Opts.RecordLoadDependences = false;
  Opts.Output = Dir + "/without.bbtrace";
  TraceRecordResult Without = requireOk(runTraceRecord(Opts));
  CHECK(!Without.LoadDependencesKept);
  CHECK(Without.Instructions == Result.Instructions);
  CHECK(readFile(Opts.Output)[8] == 1);
  CHECK(!requireOk(SegmentTraceReader::open(Opts.Output))->hasLoadDependences());
}
#endif
