#include "CompileFixture.h"
#include "DecisionLog.h"
#include "TestSupport.h"

#include <future>

using namespace mlgo;
using namespace mlgo::test;

TEST_CASE("initial and poor answer every decision of a real compile", "[compile]") {
  std::string Dir = makeTempDir("compile-policies");
  std::string Bc = compileToBitcode(Dir, "pressure", PressureSource);
  for (const char *Name : {"initial", "poor"}) {
    DYNAMIC_SECTION(Name) {
      Policy P = requireOk(builtinPolicy(Name));
      std::string Obj = Dir + "/" + Name + ".o", Log = Dir + "/" + Name + ".jsonl";
      CompileOptions O = optionsFor(Dir, objectArgs(Bc, Obj));
      O.RecordDecisions = Log;
      uint64_t Seen = 0;
      O.OnDecision = [&](const DecisionEvent &E) {
        REQUIRE(E.Features.legal(E.Decision));
        ++Seen;
      };
      CompileResult R = requireOk(compileWithPolicy(P, O));
      REQUIRE(R.ChannelOpened);
      REQUIRE(R.Functions == 3);
      REQUIRE(R.Decisions > 0);
      REQUIRE(Seen == R.Decisions);
      REQUIRE(readSections(Obj, ".text").at(".text").size() > 0);
      std::vector<RecordedDecision> Recorded = requireOk(readDecisionLog(Log));
      REQUIRE(Recorded.size() == R.Decisions);
      for (const RecordedDecision &D : Recorded) {
        REQUIRE(D.Features.legal(D.Decision));
        // The recording is exact: deciding again gives the same column.
        REQUIRE(P.decide(D.Features) == D.Decision);
      }
      REQUIRE(Recorded.front().Function == "mix");
      REQUIRE(listDir(O.ChannelParent).empty());
    }
  }
}

TEST_CASE("default compiles without the advisor", "[compile]") {
  std::string Dir = makeTempDir("compile-default");
  std::string Bc = compileToBitcode(Dir, "pressure", PressureSource);
  CompileOptions O = optionsFor(Dir, objectArgs(Bc, Dir + "/default.o"));
  O.RecordDecisions = Dir + "/default.jsonl";
  CompileResult R = requireOk(compileWithPolicy(Policy::makeDefault(), O));
  REQUIRE(!R.ChannelOpened);
  REQUIRE(R.Decisions == 0);
  REQUIRE(fileExists(Dir + "/default.o"));
  REQUIRE(!fileExists(Dir + "/default.jsonl"));
}

TEST_CASE("Modules that never reach the advisor finish cleanly", "[compile]") {
  std::string Dir = makeTempDir("compile-nofunctions");
  Policy P = requireOk(builtinPolicy("initial"));
  SECTION("only declarations and data") {
    std::string Bc =
        compileToBitcode(Dir, "decls", "extern int f(int); int table[4] = {1, 2};\n");
    CompileResult R = requireOk(
        compileWithPolicy(P, optionsFor(Dir, objectArgs(Bc, Dir + "/decls.o"))));
    REQUIRE(!R.ChannelOpened);
    REQUIRE(R.Decisions == 0);
    REQUIRE(fileExists(Dir + "/decls.o"));
  }
  SECTION("-O0 uses the fast allocator") {
    std::string Bc = compileToBitcode(Dir, "pressure", PressureSource);
    std::vector<std::string> Args = objectArgs(Bc, Dir + "/o0.o");
    Args[2] = "-O0";
    CompileResult R = requireOk(compileWithPolicy(P, optionsFor(Dir, Args)));
    REQUIRE(!R.ChannelOpened);
    REQUIRE(fileExists(Dir + "/o0.o"));
  }
  REQUIRE(listDir(Dir + "/channels").empty());
}

TEST_CASE("Compiles run in parallel, each on its own channel", "[compile]") {
  std::string Dir = makeTempDir("compile-parallel");
  std::string Bc = compileToBitcode(Dir, "pressure", PressureSource);
  Policy P = requireOk(builtinPolicy("initial"));
  CompileResult Serial =
      requireOk(compileWithPolicy(P, optionsFor(Dir, objectArgs(Bc, Dir + "/serial.o"))));
  std::vector<std::future<llvm::Expected<CompileResult>>> Jobs;
  for (int I = 0; I < 4; ++I)
    Jobs.push_back(std::async(std::launch::async, [&, I] {
      return compileWithPolicy(
          P, optionsFor(Dir, objectArgs(Bc, Dir + "/p" + std::to_string(I) + ".o")));
    }));
  std::string SerialText = readSections(Dir + "/serial.o", ".text").at(".text");
  for (int I = 0; I < 4; ++I) {
    CompileResult R = requireOk(Jobs[I].get());
    REQUIRE(R.Decisions == Serial.Decisions);
    REQUIRE(readSections(Dir + "/p" + std::to_string(I) + ".o", ".text").at(".text") ==
            SerialText);
  }
  REQUIRE(listDir(Dir + "/channels").empty());
}
