// trace import --format drmemtrace on thread files and module lists the tests write
// themselves, following DynamoRIO's offline trace format, for a real binary.
#include "ImportTestProgram.h"
#include "TestSupport.h"
#include "trace/TraceImport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <fmt/format.h>
#include <zip.h>
#include <zlib.h>

using namespace mlgo;
using namespace mlgo::test;

namespace {

constexpr uint64_t Bias = 0x555555554000;      // where the PIE "ran"
constexpr uint64_t LibcStart = 0x7ffff7c00000; // modules.log entry 3 (module id 4)

/// trace_entry_t records: u16 type, u16 size, u64 addr, little-endian.
struct Records {
  std::string Bytes;
  void add(uint16_t Type, uint16_t Size, uint64_t Addr) {
    for (int I = 0; I < 2; ++I)
      Bytes.push_back(char(Type >> (8 * I)));
    for (int I = 0; I < 2; ++I)
      Bytes.push_back(char(Size >> (8 * I)));
    for (int I = 0; I < 8; ++I)
      Bytes.push_back(char(Addr >> (8 * I)));
  }
};

/// A thread's records in two chunks, as raw2trace writes them: a header, the thread
/// and process, markers; instruction fetches of every kind among encodings, data
/// references and prefetches; a chunk footer; then the rest and the footer.
std::pair<std::string, std::string> threadChunks(const Plan &P) {
  const uint16_t InstrTypes[] = {10, 11, 12, 13, 14, 15, 16, 29, 31, 48, 49};
  Records First, Second;
  First.add(25, 0, 5);            // header: version
  First.add(22, 0, P.Thread);     // thread
  First.add(24, 0, 4242);         // pid
  First.add(28, 12, 5);           // marker: version
  First.add(28, 2, 13300000000);  // marker: timestamp
  for (size_t I = 0; I < P.Steps.size(); ++I) {
    Records &R = I < P.Steps.size() / 2 ? First : Second;
    if (I == P.Steps.size() / 2) { // a new chunk starts with a timestamp and a cpu
      R.add(28, 2, 13300000001);
      R.add(28, 3, 1);
    }
    const Step &S = P.Steps[I];
    if (I % 3 == 0)
      R.add(47, std::min<uint32_t>(S.Length, 8), 0x9090909090909090); // encoding
    R.add(InstrTypes[I % std::size(InstrTypes)], S.Length,
          S.Library ? S.Address : S.Address + Bias);
    if (I % 4 == 1)
      R.add(0, 8, 0x7ffffffde000 + I); // a load
    if (I % 5 == 2)
      R.add(I % 2 ? 1 : 9, 4, 0x7ffffffdf000); // a store, or an instruction prefetch
  }
  First.add(28, 21, 0); // marker: chunk footer
  Second.add(23, 0, P.Thread); // thread exit
  Second.add(26, 0, 0);        // footer
  return {First.Bytes, Second.Bytes};
}

void writeGzip(const std::string &Path, const std::string &Bytes) {
  llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
  gzFile F = gzopen(Path.c_str(), "wb");
  REQUIRE(F);
  REQUIRE(gzwrite(F, Bytes.data(), Bytes.size()) == int(Bytes.size()));
  REQUIRE(gzclose(F) == Z_OK);
}

void writeZip(const std::string &Path, const std::vector<std::string> &Chunks) {
  llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
  int Error = 0;
  zip_t *Archive = zip_open(Path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &Error);
  REQUIRE(Archive);
  for (size_t I = 0; I < Chunks.size(); ++I) {
    zip_source_t *Source =
        zip_source_buffer(Archive, Chunks[I].data(), Chunks[I].size(), /*freep=*/0);
    REQUIRE(Source);
    REQUIRE(zip_file_add(Archive, fmt::format("chunk.{:04}", I).c_str(), Source, 0) >= 0);
  }
  REQUIRE(zip_close(Archive) == 0);
}

/// modules.log as drmemtrace writes it: the binary (two segments), the vdso (whose
/// contents follow its custom field, newlines included) and libc.
std::string modulesLog(const TestProgram &Program, const std::string &BinaryPath,
                       uint64_t EntryBias = Bias) {
  uint64_t Entry = Program.layout().Entry + EntryBias;
  std::string Log = "Module Table: version 5, count 5\n"
                    "Columns: id, containing_id, start, end, entry, offset, preferred_base, "
                    "(custom fields), path\n";
  auto Line = [&](unsigned Id, unsigned Containing, uint64_t Start, uint64_t End,
                  uint64_t Entry, uint64_t Preferred, const std::string &Custom,
                  const std::string &Path) {
    Log += fmt::format("{:3}, {:3}, {:#018x}, {:#018x}, {:#018x}, {:016x}, {:#018x}, {} {}\n",
                       Id, Containing, Start, End, Entry, 0, Preferred, Custom, Path);
  };
  Line(0, 0, Bias, Bias + 0x100000, Entry, 0, "v#1,0,", BinaryPath);
  Line(1, 0, Bias + 0x200000, Bias + 0x201000, Entry, 0x200000, "v#1,0,", BinaryPath);
  Line(2, 2, 0x7ffff7fc1000, 0x7ffff7fc3000, 0x7ffff7fc1700, 0,
       std::string("v#1,7,\x7f" "ELF\n\x02\x01", 13), "[vdso]");
  Line(3, 3, LibcStart, LibcStart + 0x200000, LibcStart + 0x29dc0, 0, "v#1,0,",
       "/lib/x86_64-linux-gnu/libc.so.6");
  Line(4, 3, LibcStart + 0x200000, LibcStart + 0x210000, LibcStart + 0x29dc0, 0x200000,
       "v#1,0,", "/lib/x86_64-linux-gnu/libc.so.6");
  return Log;
}

/// A thread that runs the startup code, main, libc and square.
Plan threadPlan(const TestProgram &Program, uint32_t Thread) {
  Plan P{Thread, /*BinaryModule=*/1, /*LibraryModule=*/4, {}, {}};
  Program.runEntry(P, 2);
  Program.runFunction(P, "main");
  TestProgram::runLibrary(P, LibcStart + 0x1000, 3);
  Program.runFunction(P, "square");
  return P;
}

TraceImportOptions importOptions(const TestProgram &Program, const std::string &Input,
                                 const std::string &Output) {
  TraceImportOptions Opts;
  Opts.Binary = Program.path();
  Opts.Format = ImportFormat::Drmemtrace;
  Opts.Input = Input;
  Opts.Output = Output;
  return Opts;
}

} // namespace

TEST_CASE("drmemtrace: zip, gzip and plain thread files give the same exact segment trace",
          "[trace]") {
  std::string Dir = makeTempDir("drmemtrace");
  TestProgram Program = TestProgram::build(Dir);
  Plan P = threadPlan(Program, 31337);
  REQUIRE(P.Expected.size() > 4);
  auto [First, Second] = threadChunks(P);
  for (const char *Form : {"zip", "gz", "plain"}) {
    std::string Out = Dir + "/" + Form;
    writeFile(Out + "/raw/modules.log", modulesLog(Program, Program.path()));
    std::string File = Out + "/trace/drmemtrace.app.31337.0000.trace";
    if (std::string(Form) == "zip")
      writeZip(File + ".zip", {First, Second});
    else if (std::string(Form) == "gz")
      writeGzip(File + ".gz", First + Second);
    else
      writeFile(File, First + Second);
    INFO(Form);
    TraceImportResult R =
        requireOk(runTraceImport(importOptions(Program, Out, Out + ".bbtrace")));
    CHECK(R.Instructions == P.Steps.size());
    CHECK(R.Threads == 1);
    CHECK(R.InputFiles == 1);
    CHECK(readEvents(Out + ".bbtrace") == P.Expected);
  }
  CHECK(readFile(Dir + "/zip.bbtrace") == readFile(Dir + "/gz.bbtrace"));
  CHECK(readFile(Dir + "/zip.bbtrace") == readFile(Dir + "/plain.bbtrace"));
}

TEST_CASE("drmemtrace: two thread files give two thread streams", "[trace]") {
  std::string Dir = makeTempDir("drmemtrace-threads");
  TestProgram Program = TestProgram::build(Dir);
  Plan A = threadPlan(Program, 100), B{200, 1, 4, {}, {}};
  for (int I = 0; I < 3; ++I)
    Program.runFunction(B, "square");
  TestProgram::runLibrary(B, LibcStart + 0x5000, 7);
  auto [A1, A2] = threadChunks(A);
  auto [B1, B2] = threadChunks(B);
  // The thread files in a directory of their own: an output may not lie inside an input.
  std::string Trace = Dir + "/trace";
  writeZip(Trace + "/drmemtrace.app.100.0000.trace.zip", {A1, A2});
  writeGzip(Trace + "/drmemtrace.app.200.0000.trace.gz", B1 + B2);
  writeFile(Trace + "/drmemtrace.app.200.0000.raw.lz4", "not a thread file: skipped");
  // Recorded elsewhere: the binary is found by its file name.
  writeFile(Trace + "/modules.log", modulesLog(Program, "/home/someone/build/app"));
  TraceImportResult R =
      requireOk(runTraceImport(importOptions(Program, Trace, Dir + "/out.bbtrace")));
  CHECK(R.Threads == 2);
  CHECK(R.InputFiles == 2);
  CHECK(R.Instructions == A.Steps.size() + B.Steps.size());
  std::vector<Event> Expected = A.Expected;
  Expected.insert(Expected.end(), B.Expected.begin(), B.Expected.end());
  std::vector<Event> Events = readEvents(Dir + "/out.bbtrace");
  CHECK(Events == Expected);
  std::map<uint32_t, uint64_t> PerThread;
  for (const Event &E : Events)
    PerThread[std::get<0>(E)] += std::get<4>(E);
  CHECK(PerThread == std::map<uint32_t, uint64_t>{{100, A.Steps.size()},
                                                   {200, B.Steps.size()}});

  // One file of the two, named directly: its modules.log is beside it.
  R = requireOk(runTraceImport(importOptions(
      Program, Trace + "/drmemtrace.app.200.0000.trace.gz", Dir + "/one.bbtrace")));
  CHECK(readEvents(Dir + "/one.bbtrace") == B.Expected);
}

TEST_CASE("drmemtrace: truncated and foreign inputs are errors that name the file",
          "[trace]") {
  std::string Dir = makeTempDir("drmemtrace-bad");
  TestProgram Program = TestProgram::build(Dir);
  Plan P = threadPlan(Program, 7);
  auto [First, Second] = threadChunks(P);
  std::string Whole = First + Second;
  writeFile(Dir + "/modules.log", modulesLog(Program, Program.path()));
  std::string Out = Dir + "/out.bbtrace";
  auto Import = [&](const std::string &File) {
    std::string Message =
        requireError(runTraceImport(importOptions(Program, Dir + "/" + File, Out)));
    CHECK_FALSE(llvm::sys::fs::exists(Out)); // no partial output
    return Message;
  };
  auto Expect = [](const std::string &Message, const std::string &Prefix,
                   const std::string &What) {
    CHECK_THAT(Message, Catch::StartsWith(Prefix) && Catch::Contains(What));
  };

  writeFile(Dir + "/cut.trace", Whole.substr(0, Whole.size() - 5));
  Expect(Import("cut.trace"), Dir + "/cut.trace: ", "ends inside a record: truncated");
  writeFile(Dir + "/nofooter.trace", Whole.substr(0, Whole.size() - 12));
  Expect(Import("nofooter.trace"), Dir + "/nofooter.trace: ",
         "has no footer record (type 26) at its end: truncated");
  writeFile(Dir + "/empty.trace", "");
  Expect(Import("empty.trace"), Dir + "/empty.trace: ", "holds no records");
  writeFile(Dir + "/garbage.trace", std::string(120, 'x'));
  Expect(Import("garbage.trace"), Dir + "/garbage.trace: record 1: ",
         "not a drmemtrace trace");
  writeGzip(Dir + "/whole.trace.gz", Whole);
  std::string Gz = readFile(Dir + "/whole.trace.gz");
  writeFile(Dir + "/cut.trace.gz", Gz.substr(0, Gz.size() / 2));
  Expect(Import("cut.trace.gz"), Dir + "/cut.trace.gz: ", "truncated gzip data");
  writeFile(Dir + "/plain.trace.gz", Whole);
  Expect(Import("plain.trace.gz"), Dir + "/plain.trace.gz: ", "not gzip-compressed");
  writeZip(Dir + "/whole.trace.zip", {First, Second});
  std::string Zip = readFile(Dir + "/whole.trace.zip");
  writeFile(Dir + "/cut.trace.zip", Zip.substr(0, Zip.size() - 30));
  Expect(Import("cut.trace.zip"), Dir + "/cut.trace.zip: ", "not a readable zip archive");
  // A chunk cut at a record boundary still lacks its chunk footer.
  writeZip(Dir + "/chunk.trace.zip", {First.substr(0, First.size() - 12), Second});
  Expect(Import("chunk.trace.zip"), Dir + "/chunk.trace.zip: chunk.0000: record ",
         "does not end with a chunk footer: truncated");

  // The module list must hold this build of the binary.
  writeFile(Dir + "/whole.trace", Whole);
  writeFile(Dir + "/modules.log", modulesLog(Program, "/bin/true"));
  Expect(Import("whole.trace"), Dir + "/modules.log: ", "lists no module for");
  writeFile(Dir + "/modules.log", modulesLog(Program, Program.path(), Bias + 0x10));
  Expect(Import("whole.trace"), Dir + "/modules.log: ", "a different build?");
  writeFile(Dir + "/modules.log", modulesLog(Program, Program.path()));
  Plan Rebuilt = P;
  Rebuilt.Steps[3].Length += 1;
  auto [Rebuilt1, Rebuilt2] = threadChunks(Rebuilt);
  writeFile(Dir + "/rebuilt.trace", Rebuilt1 + Rebuilt2);
  Expect(Import("rebuilt.trace"), Dir + "/rebuilt.trace: ",
         "bytes long, but " + Program.path() + " has a ");
  writeFile(Dir + "/modules.log", "Module Table: version 5, count 5\nColumns: id, path\n");
  Expect(Import("whole.trace"), Dir + "/modules.log: ", "has no \"containing_id\" column");
  std::string Log = modulesLog(Program, Program.path());
  size_t SecondModule = Log.find('\n', Log.find('\n', Log.find('\n') + 1) + 1);
  writeFile(Dir + "/modules.log", Log.substr(0, SecondModule + 1));
  Expect(Import("whole.trace"), Dir + "/modules.log: ", "(truncated?)");
}
