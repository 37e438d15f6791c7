/// \file
/// Tests CollectorStreamReader on hand-made streams (exact decoding, truncation,
/// versions) and on a real program recorded by the mlgotrace Valgrind tool, whose
/// instruction count must equal Lackey's.
#include "CollectorStream.h"
#include "TestSupport.h"
#include "support/ByteCursor.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <fcntl.h>
#include <map>
#include <set>
#include <unistd.h>

extern char **environ;

using namespace mlgo;
using namespace mlgo::test;
using namespace llvm;

namespace {

struct Recorder : CollectorStreamListener {
  std::vector<CollectorRun> Runs;
  std::vector<uint32_t> Switches;
  std::vector<CollectorLoadSite> Loads;
  Error onLoadSite(const CollectorLoadSite &Site) override {
    Loads.push_back(Site);
    return Error::success();
  }
  Error onRun(const CollectorRun &R) override {
    Runs.push_back(R);
    return Error::success();
  }
  void onThreadSwitch(uint32_t Tid) override { Switches.push_back(Tid); }
};

/// Totals per thread and per module, without keeping every run.
struct Counter : CollectorStreamListener {
  const CollectorStreamReader *Reader = nullptr;
  std::map<uint32_t, uint64_t> PerThread, PerModule;
  Error onRun(const CollectorRun &R) override {
    PerThread[R.ThreadId] += R.NumInstructions;
    PerModule[Reader->superblocks()[R.SuperblockIndex].ModuleId] += R.NumInstructions;
    return Error::success();
  }
};

// --- Hand-made streams -------------------------------------------------------------


std::string header(uint32_t Version = 1) {
  std::string S = "MLGOTRCE";
  for (uint32_t V : {Version, 4242u})
    for (int I = 0; I < 4; ++I)
      S.push_back(char(V >> (8 * I)));
  return S;
}

/// Module 1 (main, bias 0x108000); a superblock of 3 instructions at 0x109000 with a
/// side exit after 2; thread 1 runs it to the end, thread 2 leaves at the side exit.
std::string smallStream() {
  std::string S = header();
  appendVarint(S, 1); // module
  appendVarint(S, 1);
  S.push_back(1);
  appendVarint(S, 0x109000);
  appendVarint(S, 0x100);
  appendVarint(S, 0x108000 << 1); // zigzag
  appendVarint(S, 4);
  S += "/bin";
  appendVarint(S, 2); // superblock
  appendVarint(S, 0);
  appendVarint(S, 0x109000);
  appendVarint(S, 1);
  appendVarint(S, 3);
  S += std::string("\x01\x02\x01", 3);
  S += std::string("\x90\x74\x00\xc3", 4);
  appendVarint(S, 2);
  S += std::string("\x02\x03", 2);
  appendVarint(S, 3); // thread 1
  appendVarint(S, 1);
  appendVarint(S, 16 + 1); // run through the final exit
  appendVarint(S, 16 + 1);
  appendVarint(S, 3); // thread 2
  appendVarint(S, 2);
  appendVarint(S, 16 + 0); // run through the side exit
  appendVarint(S, 0); // end: 8 instructions in 3 runs
  appendVarint(S, 8);
  appendVarint(S, 3);
  return S;
}

std::string writeTemp(const std::string &Contents) {
  static std::string Dir = makeTempDir("collector-stream");
  static int Count = 0;
  std::string Path = Dir + "/stream" + std::to_string(Count++) + ".bin";
  writeFile(Path, Contents);
  return Path;
}

Error readAll(const std::string &Path, CollectorStreamListener &L) {
  Expected<std::unique_ptr<CollectorStreamReader>> R = CollectorStreamReader::open(Path);
  if (!R)
    return R.takeError();
  return (*R)->run(L);
}

// --- Running the tool ---------------------------------------------------------------
// Built only when CMake found Valgrind and built the tool (MLGO_HAVE_VALGRIND_TOOL).
#ifdef MLGO_TEST_VALGRIND_LIB_DIR

const char *TestProgram = R"(
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <valgrind/valgrind.h>
/* Generated code: "mov eax, value; ret", rewritten in place at the same address. */
static int jit(unsigned char value) {
  static unsigned char *code;
  if (!code)
    code = mmap(0, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  unsigned char insns[] = {0xb8, value, 0, 0, 0, 0xc3};
  memcpy(code, insns, sizeof insns);
  VALGRIND_DISCARD_TRANSLATIONS(code, sizeof insns);
  return ((int (*)(void))code)();
}
__attribute__((noinline)) static long step(long i) { return i * i % 7; }
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static void *worker(void *arg) {
  long s = 0;
  for (long i = 0; i < (long)arg; ++i)
    s += step(i);
  return (void *)s;
}
int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 300000;
  long sum = 0;
  for (int i = 0; i < 1000; ++i) {
    if (i * i > 40000) /* conditional early exit */
      break;
    sum += fib(i % 15);
  }
  /* Flush fib's translations: the retranslation must reuse its definitions. */
  VALGRIND_DISCARD_TRANSLATIONS((void *)&fib, 64);
  sum += fib(10);
  sum += jit(1) + jit(2);
  pthread_t t;
  void *r;
  if (pthread_create(&t, NULL, worker, (void *)n) != 0)
    return 1;
  pthread_join(t, &r);
  printf("%ld %ld\n", sum, (long)r);
  return 0;
}
)";

/// The same environment for every Valgrind run: the client's environment (and so
/// the instructions ld.so spends on it) must not differ between tools.
std::vector<std::string> valgrindEnv() {
  std::vector<std::string> Env;
  for (char **E = environ; *E; ++E)
    if (!StringRef(*E).starts_with("VALGRIND_LIB=") &&
        !StringRef(*E).starts_with("LD_PRELOAD="))
      Env.push_back(*E);
  Env.push_back(std::string("VALGRIND_LIB=") + MLGO_TEST_VALGRIND_LIB_DIR);
  return Env;
}

/// Fixed scheduling (--fair-sched=yes) and the flags mlgotrace forces anyway, so
/// every tool sees the same instruction stream.
std::vector<std::string> valgrindArgs(StringRef Tool, StringRef LogFile) {
  return {MLGO_TEST_VALGRIND,          ("--tool=" + Tool).str(),
          "--fair-sched=yes",          "--vex-guest-chase=no",
          "--vex-iropt-unroll-thresh=0", ("--log-file=" + LogFile).str()};
}

int runAndWait(const std::vector<std::string> &Args, StringRef Stdout) {
  std::vector<StringRef> ArgRefs(Args.begin(), Args.end());
  std::vector<std::string> Env = valgrindEnv();
  std::vector<StringRef> EnvRefs(Env.begin(), Env.end());
  std::optional<StringRef> Redirects[] = {StringRef(""), Stdout, std::nullopt};
  std::string Err;
  int RC = sys::ExecuteAndWait(Args[0], ArgRefs, EnvRefs, Redirects, 0, 0, &Err);
  INFO(Err);
  return RC;
}

/// Lackey's "guest instrs:  1,234,567" line, without the commas.
uint64_t lackeyCount(StringRef Log) {
  size_t At = Log.find("guest instrs:  ");
  REQUIRE(At != StringRef::npos);
  StringRef Num = Log.drop_front(At + 15).take_until([](char C) { return C == '\n'; });
  std::string Digits;
  for (char C : Num)
    if (isDigit(C))
      Digits.push_back(C);
  return std::stoull(Digits);
}

/// Link-time address and bytes of \p Symbol in the ELF file \p Path.
std::pair<uint64_t, std::string> symbolBytes(StringRef Path, StringRef Symbol,
                                             size_t Size) {
  object::OwningBinary<object::ObjectFile> Obj =
      requireOk(object::ObjectFile::createObjectFile(Path));
  for (const object::SymbolRef &Sym : Obj.getBinary()->symbols()) {
    if (requireOk(Sym.getName()) != Symbol)
      continue;
    uint64_t Address = requireOk(Sym.getAddress());
    object::SectionRef Sec = *requireOk(Sym.getSection());
    StringRef Contents = requireOk(Sec.getContents());
    return {Address, Contents.substr(Address - Sec.getAddress(), Size).str()};
  }
  FAIL("no symbol " << Symbol.str() << " in " << Path.str());
  return {};
}

#endif // MLGO_TEST_VALGRIND_LIB_DIR

} // namespace

TEST_CASE("decodes a hand-made stream exactly", "[trace]") {
  std::string Path = writeTemp(smallStream());
  auto Reader = requireOk(CollectorStreamReader::open(Path));
  Recorder R;
  requireSuccess(Reader->run(R));
  CHECK(Reader->pid() == 4242);
  CHECK(Reader->numInstructions() == 8);
  CHECK(Reader->numRuns() == 3);
  REQUIRE(Reader->mainExecutable() == Reader->module(1));
  CHECK(Reader->module(1)->LoadBias == 0x108000);
  CHECK(Reader->module(1)->Path == "/bin");
  CHECK(Reader->module(2) == nullptr);
  REQUIRE(Reader->superblocks().size() == 1);
  const CollectorSuperblock &S = Reader->superblocks()[0];
  CHECK(S.Bytes == std::vector<uint8_t>{0x90, 0x74, 0x00, 0xc3});
  CHECK(S.ExitInstrCounts == std::vector<uint8_t>{2, 3});
  CHECK(R.Switches == std::vector<uint32_t>{1, 2});
  REQUIRE(R.Runs.size() == 3);
  CHECK((R.Runs[0].ThreadId == 1 && R.Runs[0].NumInstructions == 3));
  CHECK((R.Runs[2].ThreadId == 2 && R.Runs[2].NumInstructions == 2));
  CHECK(R.Runs[2].Address == 0x109000);
}

TEST_CASE("decodes records cut across reads at every byte", "[trace]") {
  std::string Path = writeTemp(smallStream());
  for (size_t ReadSize = 1; ReadSize <= 8; ++ReadSize) {
    int Fd = ::open(Path.c_str(), O_RDONLY);
    REQUIRE(Fd >= 0);
    CollectorStreamReader Reader(Fd, Path, /*OwnsFd=*/true, ReadSize);
    Recorder R;
    requireSuccess(Reader.run(R));
    CHECK(Reader.numInstructions() == 8);
    CHECK(R.Runs.size() == 3);
    CHECK(R.Switches == std::vector<uint32_t>{1, 2});
    CHECK(Reader.superblocks().size() == 1);
  }
}

TEST_CASE("a cut-off stream is an error at every length", "[trace]") {
  std::string Full = smallStream();
  for (size_t Len = 0; Len < Full.size(); ++Len) {
    std::string Path = writeTemp(Full.substr(0, Len));
    Recorder R;
    std::string Message = requireError(readAll(Path, R));
    INFO("length " << Len << ": " << Message);
    CHECK(StringRef(Message).starts_with(Path + ": truncated collector stream: "));
    }
}

TEST_CASE("rejects other versions, other files and inconsistent counts", "[trace]") {
  auto messageFor = [](const std::string &Contents) {
    std::string Path = writeTemp(Contents);
    Recorder R;
    return requireError(readAll(Path, R));
  };
  std::string Full = smallStream();
  CHECK_THAT(messageFor(header(3) + Full.substr(16)),
             Catch::EndsWith(": collector stream version 3, this reader reads versions 1 "
                             "and 2"));
  CHECK_THAT(messageFor("ELF" + Full),
             Catch::EndsWith(": not a collector stream (bad magic)"));
  std::string BadEnd = Full;
  BadEnd[BadEnd.size() - 2] = 9; // the end record's instruction count
  CHECK_THAT(messageFor(BadEnd),
             Catch::EndsWith("end record counts 9 instructions in 3 runs, but the "
                             "stream holds 8 in 3"));
}

#ifdef MLGO_TEST_VALGRIND_LIB_DIR
TEST_CASE("records a threaded program exactly", "[trace]") {
  std::string Dir = makeTempDir("collector-program");
  std::string Exe = Dir + "/prog";
  writeFile(Dir + "/prog.c", TestProgram);
  CommandResult Compiled =
      runShell(std::string(ClangPath) + " -O2 -pthread prog.c -o prog", Dir);
  INFO(Compiled.Output);
  REQUIRE(Compiled.ExitCode == 0);

  // Stream through a pipe to --mlgotrace-fd, decoding while the program runs; if the
  // tool dies the pipe closes and the reader reports a truncated stream, never hangs.
  int Pipe[2];
  REQUIRE(::pipe(Pipe) == 0);
  REQUIRE(::fcntl(Pipe[0], F_SETFD, FD_CLOEXEC) == 0);
  std::vector<std::string> Args = valgrindArgs("mlgotrace", Dir + "/mlgotrace.log");
  Args.push_back("-v");
  Args.push_back("--mlgotrace-fd=" + std::to_string(Pipe[1]));
  Args.push_back(Exe);
  std::vector<StringRef> ArgRefs(Args.begin(), Args.end());
  std::vector<std::string> Env = valgrindEnv();
  std::vector<StringRef> EnvRefs(Env.begin(), Env.end());
  std::string Out = Dir + "/mlgotrace.out";
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(Out), std::nullopt};
  std::string Err;
  sys::ProcessInfo PI = sys::ExecuteNoWait(Args[0], ArgRefs, EnvRefs, Redirects, 0, &Err);
  ::close(Pipe[1]);
  REQUIRE(PI.Pid > 0);
  CollectorStreamReader Reader(Pipe[0], "pipe", /*OwnsFd=*/true);
  Counter C;
  C.Reader = &Reader;
  Error ReadErr = Reader.run(C);
  sys::ProcessInfo Done = sys::Wait(PI, std::nullopt, &Err);
  INFO(readFile(Dir + "/mlgotrace.log"));
  requireSuccess(std::move(ReadErr));
  REQUIRE(Done.ReturnCode == 0);

  // Lackey counts one guest instruction per executed IMark, as mlgotrace does.
  std::vector<std::string> Lackey = valgrindArgs("lackey", Dir + "/lackey.log");
  Lackey.push_back(Exe);
  REQUIRE(runAndWait(Lackey, Dir + "/lackey.out") == 0);
  CHECK(readFile(Out) == readFile(Dir + "/lackey.out"));
  CHECK(Reader.numInstructions() == lackeyCount(readFile(Dir + "/lackey.log")));
  CHECK(Reader.numInstructions() > 2000000);

  // fib's discarded superblocks were retranslated and matched their definitions, so
  // each address is defined once, except the generated code: rewritten at the same
  // address, it is defined twice, with the two contents, outside any module.
  std::string Log = readFile(Dir + "/mlgotrace.log");
  CHECK_THAT(Log, !Catch::Contains(" 0 retranslations reused"));
  CHECK_THAT(Log, Catch::Contains("retranslations reused"));
  std::map<uint64_t, std::vector<const CollectorSuperblock *>> ByAddress;
  for (const CollectorSuperblock &S : Reader.superblocks())
    ByAddress[S.Address].push_back(&S);
  std::vector<std::vector<uint8_t>> Redefined;
  for (auto &[Address, Defs] : ByAddress)
    if (Defs.size() > 1)
      for (const CollectorSuperblock *S : Defs) {
        CHECK(S->ModuleId == 0);
        Redefined.push_back(S->Bytes);
      }
  CHECK(Redefined == std::vector<std::vector<uint8_t>>{{0xb8, 1, 0, 0, 0, 0xc3},
                                                       {0xb8, 2, 0, 0, 0, 0xc3}});
  CHECK(C.PerModule[0] == 4); // two runs of the generated code

  // Exactly two threads, both doing work.
  REQUIRE(C.PerThread.size() == 2);
  CHECK(C.PerThread.count(1) == 1);
  CHECK(C.PerThread.count(2) == 1);
  CHECK(C.PerThread[2] > 1000000); // the worker loop

  // The main binary: a PIE, which Valgrind loads at bias 0x108000; the superblock at
  // main() holds the binary's own bytes.
  const CollectorModule *Main = Reader.mainExecutable();
  REQUIRE(Main);
  SmallString<128> RealExe;
  REQUIRE(!sys::fs::real_path(Exe, RealExe));
  CHECK(Main->Path == std::string(RealExe));
  CHECK(Main->LoadBias == 0x108000);
  CHECK(C.PerModule[Main->Id] > 1000000);
  CHECK(Reader.modules().size() >= 3); // main, ld.so, libc, vgpreload_core
  // .plt and .init code is attributed to its file: only generated code has no module.
  CHECK(C.PerModule.size() == Reader.modules().size() + 1); // + the generated code
  auto [MainAddress, MainBytes] = symbolBytes(Exe, "main", 8);
  const CollectorSuperblock *AtMain = nullptr;
  for (const CollectorSuperblock &S : Reader.superblocks())
    if (S.Address == MainAddress + Main->LoadBias)
      AtMain = &S;
  REQUIRE(AtMain);
  CHECK(AtMain->ModuleId == Main->Id);
  REQUIRE(AtMain->Bytes.size() >= 8);
  CHECK(std::string(AtMain->Bytes.begin(), AtMain->Bytes.begin() + 8) == MainBytes);
}

TEST_CASE("writes to the path given by --mlgotrace-out", "[trace]") {
  std::string Dir = makeTempDir("collector-out");
  std::string Stream = Dir + "/trace.bin";
  std::vector<std::string> Args = valgrindArgs("mlgotrace", Dir + "/log");
  Args.push_back("--mlgotrace-out=" + Stream);
  Args.push_back("/bin/true");
  REQUIRE(runAndWait(Args, Dir + "/out") == 0);
  Recorder R;
  requireSuccess(readAll(Stream, R));
  CHECK(R.Switches == std::vector<uint32_t>{1});
  CHECK(!R.Runs.empty());
}
#endif // MLGO_TEST_VALGRIND_LIB_DIR

TEST_CASE("version 2 streams end with load sites", "[trace]") {
  // smallStream's end record, after two load sites of its superblock's jump and ret.
  std::string Full = smallStream();
  std::string End = Full.substr(Full.size() - 3);
  auto withSites = [&](uint64_t Dependent) {
    std::string S = header(2) + Full.substr(16, Full.size() - 16 - 3);
    for (auto [Address, Executions, Dep] :
         {std::tuple{0x109001ull, 5ull, uint64_t(2)}, std::tuple{0x109003ull, 1ull << 40, uint64_t(Dependent)}}) {
      appendVarint(S, 4);
      appendVarint(S, Address);
      appendVarint(S, Executions);
      appendVarint(S, Dep);
    }
    return S + End;
  };
  Recorder R;
  requireSuccess(readAll(writeTemp(withSites(7)), R));
  REQUIRE(R.Loads.size() == 2);
  CHECK(R.Loads[0].Address == 0x109001);
  CHECK(R.Loads[0].Executions == 5);
  CHECK(R.Loads[0].Dependent == 2);
  CHECK(R.Loads[1].Executions == 1ull << 40);
  CHECK(R.Runs.size() == 3);
  // More dependent loads than loads.
  Recorder Bad;
  CHECK_THAT(requireError(readAll(writeTemp(withSites((1ull << 40) + 1)), Bad)),
             Catch::EndsWith("load site with 1099511627777 dependent loads of 1099511627776"));
}
