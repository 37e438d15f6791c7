// trace import --format lackey on logs the tests write themselves, in Lackey's
// --trace-mem=yes format, for a real PIE and a real non-PIE binary.
#include "ImportTestProgram.h"
#include "TestSupport.h"
#include "trace/TraceImport.h"

#include "llvm/Support/FileSystem.h"
#include <fmt/format.h>

using namespace mlgo;
using namespace mlgo::test;

namespace {

constexpr uint64_t LibraryCode = 0x4a00000; // outside the binary: "no module" (0)

/// A thread that runs the startup code, main, a library and square.
Plan threadPlan(const TestProgram &Program) {
  Plan P{1, /*BinaryModule=*/1, /*LibraryModule=*/0, {}, {}};
  Program.runEntry(P, 2);
  Program.runFunction(P, "main");
  TestProgram::runLibrary(P, LibraryCode, 3);
  Program.runFunction(P, "square");
  return P;
}

/// Lackey's log of \p P with the binary at \p Bias, data accesses among the
/// instructions, and its totals at exit.
std::string lackeyLog(const Plan &P, uint64_t Bias) {
  std::string Log = "==4242== Lackey, an example Valgrind tool\n"
                    "==4242== Command: ./app\n==4242== \n";
  for (size_t I = 0; I < P.Steps.size(); ++I) {
    const Step &S = P.Steps[I];
    Log += fmt::format("I  {:08x},{}\n", S.Library ? S.Address : S.Address + Bias, S.Length);
    if (I % 3 == 1)
      Log += fmt::format(" {} 1ffefff{:03x},8\n", "LSM"[I % 3], I);
  }
  return Log + fmt::format("==4242== \n==4242== Executed:\n"
                           "==4242==   SBs entered:   9\n"
                           "==4242==   guest instrs:  {}\n"
                           "==4242== \n==4242== Exit code:       0\n",
                           P.Steps.size() >= 1000 ? "1,000+" : std::to_string(P.Steps.size()));
}

TraceImportOptions importOptions(const TestProgram &Program, const std::string &Input,
                                 const std::string &Output) {
  TraceImportOptions Opts;
  Opts.Binary = Program.path();
  Opts.Format = ImportFormat::Lackey;
  Opts.Input = Input;
  Opts.Output = Output;
  return Opts;
}

} // namespace

TEST_CASE("lackey: a PIE runs at Valgrind's 0x108000, a non-PIE where it was linked",
          "[trace]") {
  std::string Dir = makeTempDir("lackey");
  for (const auto &[Flags, Bias] : {std::pair<std::string, uint64_t>{"", 0x108000},
                                    std::pair<std::string, uint64_t>{"-no-pie", 0}}) {
    INFO("flags " << Flags);
    std::string Sub = Dir + (Flags.empty() ? "/pie" : "/nopie");
    TestProgram Program = TestProgram::build(Sub, Flags);
    CHECK(Program.layout().PositionIndependent == Flags.empty());
    Plan P = threadPlan(Program);
    REQUIRE(P.Steps.size() < 1000);
    writeFile(Sub + "/lackey.log", lackeyLog(P, Bias));
    TraceImportResult R = requireOk(
        runTraceImport(importOptions(Program, Sub + "/lackey.log", Sub + "/out.bbtrace")));
    CHECK(R.Instructions == P.Steps.size());
    CHECK(R.Threads == 1);
    CHECK(readEvents(Sub + "/out.bbtrace") == P.Expected);
  }
}

TEST_CASE("lackey: cut, foreign and incomplete logs are errors that name the file",
          "[trace]") {
  std::string Dir = makeTempDir("lackey-bad");
  TestProgram Program = TestProgram::build(Dir);
  Plan P = threadPlan(Program);
  std::string Log = lackeyLog(P, 0x108000);
  std::string In = Dir + "/in.log", Out = Dir + "/out.bbtrace";
  auto Import = [&](const std::string &Text) {
    writeFile(In, Text);
    std::string Message = requireError(runTraceImport(importOptions(Program, In, Out)));
    CHECK_FALSE(llvm::sys::fs::exists(Out)); // no partial output
    CHECK_THAT(Message, Catch::StartsWith(In + ": "));
    return Message;
  };

  size_t Total = Log.find("==4242== \n==4242== Executed");
  CHECK_THAT(Import(Log.substr(0, Total)), Catch::Contains("no \"guest instrs\" total"));
  // Cut inside an instruction line, then the rest lost.
  CHECK_THAT(Import(Log.substr(0, Total - 3)), Catch::Contains("not a Lackey record") ||
                                                   Catch::Contains("no \"guest instrs\""));
  CHECK_THAT(Import("==1== Lackey\nI  00109050,2\nhello from the program\n"),
             Catch::Contains("line 3: not a Lackey record: \"hello from the program\""));
  CHECK_THAT(Import("I  00109050,0\n"), Catch::Contains("line 1: instruction length 0"));
  CHECK_THAT(Import("==1== Lackey\n X 1ffefff000,8\n"),
             Catch::Contains("line 2: not a Lackey record: \" X 1ffefff000,8\""));
  CHECK_THAT(Import("==1== guest instrs:  5\n"),
             Catch::Contains("holds no instruction lines (run Lackey with --trace-mem=yes)"));
  std::string Other = Log;
  Other.replace(Other.find("guest instrs:  ") + 15, 1, "9"); // one more digit's worth
  CHECK_THAT(Import(Other), Catch::Contains("Lackey counted"));
  CHECK_THAT(Import(Log + "==4243==   guest instrs:  7\n"),
             Catch::Contains("holds the logs of 2 processes"));
  // Addresses that never pass the binary's entry point: another program, or no PIE bias.
  CHECK_THAT(Import(lackeyLog(P, 0x200000)), Catch::Contains("the entry point of"));
  // An instruction of another length than the binary's: another build.
  Plan Rebuilt = P;
  Rebuilt.Steps[4].Length += 1;
  Rebuilt.Steps[5].Address += 1;
  CHECK_THAT(Import(lackeyLog(Rebuilt, 0x108000)),
             Catch::Contains(fmt::format("the instruction at {:#x} is {} bytes long, but {} "
                                         "has a {}-byte one there",
                                         Rebuilt.Steps[4].Address + 0x108000,
                                         Rebuilt.Steps[4].Length, Program.path(),
                                         P.Steps[4].Length)));
}
