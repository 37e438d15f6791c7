/// \file
/// Tests CollectorStreamReader on hand-made streams (exact decoding, truncation,
/// versions) and on a real program recorded by the mlgotrace Valgrind tool, whose
/// instruction count must equal Lackey's.
#include "CollectorStream.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <map>
#include <set>
#include <unistd.h>

extern char **environ;

using namespace mlgo;
using namespace llvm;

namespace {

template <typename T> T unwrap(Expected<T> V) {
  if (!V)
    FAIL(toString(V.takeError()));
  return std::move(*V);
}
void check(Error E) {
  if (E)
    FAIL(toString(std::move(E)));
}

struct Recorder : CollectorStreamListener {
  std::vector<CollectorRun> Runs;
  std::vector<uint32_t> Switches;
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

void putVarint(std::string &S, uint64_t V) {
  for (; V >= 0x80; V >>= 7)
    S.push_back(char(V | 0x80));
  S.push_back(char(V));
}

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
  putVarint(S, 1); // module
  putVarint(S, 1);
  S.push_back(1);
  putVarint(S, 0x109000);
  putVarint(S, 0x100);
  putVarint(S, 0x108000 << 1); // zigzag
  putVarint(S, 4);
  S += "/bin";
  putVarint(S, 2); // superblock
  putVarint(S, 0);
  putVarint(S, 0x109000);
  putVarint(S, 1);
  putVarint(S, 3);
  S += std::string("\x01\x02\x01", 3);
  S += std::string("\x90\x74\x00\xc3", 4);
  putVarint(S, 2);
  S += std::string("\x02\x03", 2);
  putVarint(S, 3); // thread 1
  putVarint(S, 1);
  putVarint(S, 16 + 1); // run through the final exit
  putVarint(S, 16 + 1);
  putVarint(S, 3); // thread 2
  putVarint(S, 2);
  putVarint(S, 16 + 0); // run through the side exit
  putVarint(S, 0); // end: 8 instructions in 3 runs
  putVarint(S, 8);
  putVarint(S, 3);
  return S;
}

std::string writeTemp(StringRef Contents) {
  SmallString<128> Path;
  int Fd;
  REQUIRE(!sys::fs::createTemporaryFile("collector", "bin", Fd, Path));
  raw_fd_ostream OS(Fd, /*shouldClose=*/true);
  OS << Contents;
  return std::string(Path);
}

Error readAll(const std::string &Path, CollectorStreamListener &L) {
  Expected<std::unique_ptr<CollectorStreamReader>> R = CollectorStreamReader::open(Path);
  if (!R)
    return R.takeError();
  return (*R)->run(L);
}

// --- Running the tool ---------------------------------------------------------------

const char *TestProgram = R"(
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
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
  pthread_t t;
  void *r;
  if (pthread_create(&t, NULL, worker, (void *)n) != 0)
    return 1;
  pthread_join(t, &r);
  printf("%ld %ld\n", sum, (long)r);
  return 0;
}
)";

struct Workspace {
  SmallString<128> Dir;
  Workspace() { REQUIRE(!sys::fs::createUniqueDirectory("collector-test", Dir)); }
  ~Workspace() { sys::fs::remove_directories(Dir); }
  std::string path(StringRef Name) const {
    SmallString<128> P(Dir);
    sys::path::append(P, Name);
    return std::string(P);
  }
};

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

std::string readFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Path);
  REQUIRE(B);
  return (*B)->getBuffer().str();
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
      unwrap(object::ObjectFile::createObjectFile(Path));
  for (const object::SymbolRef &Sym : Obj.getBinary()->symbols()) {
    if (unwrap(Sym.getName()) != Symbol)
      continue;
    uint64_t Address = unwrap(Sym.getAddress());
    object::SectionRef Sec = *unwrap(Sym.getSection());
    StringRef Contents = unwrap(Sec.getContents());
    return {Address, Contents.substr(Address - Sec.getAddress(), Size).str()};
  }
  FAIL("no symbol " << Symbol.str() << " in " << Path.str());
  return {};
}

} // namespace

TEST_CASE("decodes a hand-made stream exactly", "[trace]") {
  std::string Path = writeTemp(smallStream());
  auto Reader = unwrap(CollectorStreamReader::open(Path));
  Recorder R;
  check(Reader->run(R));
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
  sys::fs::remove(Path);
}

TEST_CASE("decodes records cut across reads at every byte", "[trace]") {
  std::string Path = writeTemp(smallStream());
  for (size_t ReadSize = 1; ReadSize <= 8; ++ReadSize) {
    int Fd = ::open(Path.c_str(), O_RDONLY);
    REQUIRE(Fd >= 0);
    CollectorStreamReader Reader(Fd, Path, /*OwnsFd=*/true, ReadSize);
    Recorder R;
    check(Reader.run(R));
    CHECK(Reader.numInstructions() == 8);
    CHECK(R.Runs.size() == 3);
    CHECK(R.Switches == std::vector<uint32_t>{1, 2});
    CHECK(Reader.superblocks().size() == 1);
  }
  sys::fs::remove(Path);
}

TEST_CASE("a cut-off stream is an error at every length", "[trace]") {
  std::string Full = smallStream();
  for (size_t Len = 0; Len < Full.size(); ++Len) {
    std::string Path = writeTemp(StringRef(Full).take_front(Len));
    Recorder R;
    Error E = readAll(Path, R);
    REQUIRE(bool(E));
    std::string Message = toString(std::move(E));
    INFO("length " << Len << ": " << Message);
    CHECK(StringRef(Message).starts_with(Path + ": truncated collector stream: "));
    sys::fs::remove(Path);
  }
}

TEST_CASE("rejects other versions, other files and inconsistent counts", "[trace]") {
  auto messageFor = [](const std::string &Contents) {
    std::string Path = writeTemp(Contents);
    Recorder R;
    Error E = readAll(Path, R);
    sys::fs::remove(Path);
    REQUIRE(bool(E));
    return toString(std::move(E));
  };
  std::string Full = smallStream();
  CHECK_THAT(messageFor(header(2) + Full.substr(16)),
             Catch::EndsWith(": collector stream version 2, this reader reads version 1"));
  CHECK_THAT(messageFor("ELF" + Full),
             Catch::EndsWith(": not a collector stream (bad magic)"));
  std::string BadEnd = Full;
  BadEnd[BadEnd.size() - 2] = 9; // the end record's instruction count
  CHECK_THAT(messageFor(BadEnd),
             Catch::EndsWith("end record counts 9 instructions in 3 runs, but the "
                             "stream holds 8 in 3"));
}

TEST_CASE("records a threaded program exactly", "[trace]") {
  Workspace W;
  std::string Source = W.path("prog.c"), Exe = W.path("prog");
  {
    std::error_code EC;
    raw_fd_ostream OS(Source, EC);
    REQUIRE(!EC);
    OS << TestProgram;
  }
  std::vector<std::string> Compile = {MLGO_TEST_CLANG, "-O2", "-pthread", Source, "-o", Exe};
  std::vector<StringRef> CompileRefs(Compile.begin(), Compile.end());
  REQUIRE(sys::ExecuteAndWait(Compile[0], CompileRefs) == 0);

  // Stream through a pipe to --mlgotrace-fd, decoding while the program runs; if the
  // tool dies the pipe closes and the reader reports a truncated stream, never hangs.
  int Pipe[2];
  REQUIRE(::pipe(Pipe) == 0);
  REQUIRE(::fcntl(Pipe[0], F_SETFD, FD_CLOEXEC) == 0);
  std::vector<std::string> Args = valgrindArgs("mlgotrace", W.path("mlgotrace.log"));
  Args.push_back("--mlgotrace-fd=" + std::to_string(Pipe[1]));
  Args.push_back(Exe);
  std::vector<StringRef> ArgRefs(Args.begin(), Args.end());
  std::vector<std::string> Env = valgrindEnv();
  std::vector<StringRef> EnvRefs(Env.begin(), Env.end());
  std::string Out = W.path("mlgotrace.out");
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
  INFO(readFile(W.path("mlgotrace.log")));
  check(std::move(ReadErr));
  REQUIRE(Done.ReturnCode == 0);

  // Lackey counts one guest instruction per executed IMark, as mlgotrace does.
  std::vector<std::string> Lackey = valgrindArgs("lackey", W.path("lackey.log"));
  Lackey.push_back(Exe);
  REQUIRE(runAndWait(Lackey, W.path("lackey.out")) == 0);
  CHECK(readFile(Out) == readFile(W.path("lackey.out")));
  CHECK(Reader.numInstructions() == lackeyCount(readFile(W.path("lackey.log"))));
  CHECK(Reader.numInstructions() > 2000000);

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
  CHECK(C.PerModule.size() >= 3); // main, ld.so, libc
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
  Workspace W;
  std::string Stream = W.path("trace.bin");
  std::vector<std::string> Args = valgrindArgs("mlgotrace", W.path("log"));
  Args.push_back("--mlgotrace-out=" + Stream);
  Args.push_back("/bin/true");
  REQUIRE(runAndWait(Args, W.path("out")) == 0);
  Recorder R;
  check(readAll(Stream, R));
  CHECK(R.Switches == std::vector<uint32_t>{1});
  CHECK(!R.Runs.empty());
}
