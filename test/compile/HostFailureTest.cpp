#include "CompileFixture.h"
#include "TestSupport.h"
#include "support/Interrupt.h"

#include <signal.h>

using namespace mlgo;
using namespace mlgo::test;

namespace {

bool processGone(int Pid) { return kill(Pid, 0) != 0 && errno == ESRCH; }

struct Setup {
  std::string Dir, Bc;
  Policy P = requireOk(builtinPolicy("initial"));
  explicit Setup(const std::string &Name)
      : Dir(makeTempDir(Name)), Bc(compileToBitcode(Dir, "pressure", PressureSource)) {}
  CompileOptions options() {
    CompileOptions O = optionsFor(Dir, objectArgs(Bc, Dir + "/out.o"));
    O.RecordDecisions = Dir + "/decisions.jsonl";
    return O;
  }
};

} // namespace

TEST_CASE("A compiler killed mid-compile is an error and leaves nothing behind",
          "[compile]") {
  Setup S("compile-killed");
  CompileOptions O = S.options();
  int Pid = 0;
  O.OnDecision = [&](const DecisionEvent &E) {
    if (E.Index == 2) {
      Pid = E.CompilerPid;
      kill(E.CompilerPid, SIGKILL);
    }
  };
  std::string Message = requireError(compileWithPolicy(S.P, O));
  INFO(Message);
  REQUIRE(Message.rfind("clang", 0) == 0);
  REQUIRE(Message.find(" was killed by signal 9 (Killed)") != std::string::npos);
  REQUIRE(processGone(Pid));
  REQUIRE(listDir(O.ChannelParent).empty());
  REQUIRE(!fileExists(O.RecordDecisions));
  REQUIRE(!fileExists(O.RecordDecisions + ".tmp"));
}

TEST_CASE("A compiler that fails reports its exit code and stderr", "[compile]") {
  Setup S("compile-fails");
  CompileOptions O = S.options();
  O.Args = objectArgs(S.Dir + "/missing.bc", S.Dir + "/out.o");
  std::string Message = requireError(compileWithPolicy(S.P, O));
  INFO(Message);
  REQUIRE(Message.find(" exited with code 1: ") != std::string::npos);
  REQUIRE(Message.find("missing.bc") != std::string::npos);
  REQUIRE(listDir(O.ChannelParent).empty());
}

TEST_CASE("A hanging compiler is killed at the timeout", "[compile]") {
  Setup S("compile-timeout");
  CompileOptions O = S.options();
  O.TimeoutSeconds = 1;
  int Pid = 0;
  SECTION("stopped in the middle of the protocol") {
    O.OnDecision = [&](const DecisionEvent &E) {
      if (E.Index == 1) {
        Pid = E.CompilerPid;
        kill(E.CompilerPid, SIGSTOP); // it will never ask again
      }
    };
  }
  SECTION("never opening the channel") {
    std::string Script = S.Dir + "/hang.sh";
    writeFile(Script, "#!/bin/sh\nexec sleep 30\n");
    REQUIRE(runShell("chmod +x " + shellQuote(Script)).ExitCode == 0);
    O.Clang = Script;
  }
  auto Start = std::chrono::steady_clock::now();
  std::string Message = requireError(compileWithPolicy(S.P, O));
  double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  REQUIRE(Message.find(" timed out after 1 s and was killed") != std::string::npos);
  REQUIRE(Seconds < 5);
  if (Pid)
    REQUIRE(processGone(Pid));
  REQUIRE(listDir(O.ChannelParent).empty());
}

TEST_CASE("SIGINT stops a compile: the child is killed and the FIFOs removed",
          "[compile]") {
  Setup S("compile-interrupt");
  CompileOptions O = S.options();
  installInterruptHandler();
  int Pid = 0;
  O.OnDecision = [&](const DecisionEvent &E) {
    if (E.Index == 1) {
      Pid = E.CompilerPid;
      raise(SIGINT);
    }
  };
  std::string Message = requireError(compileWithPolicy(S.P, O));
  REQUIRE(interruptRequested());
  clearInterrupt();
  signal(SIGINT, SIG_DFL);
  REQUIRE(Message.rfind(": interrupted") == Message.size() - 13);
  REQUIRE(processGone(Pid));
  REQUIRE(listDir(O.ChannelParent).empty());
}

TEST_CASE("A compiler that cannot be run is an input error", "[compile]") {
  Setup S("compile-noclang");
  CompileOptions O = S.options();
  O.Clang = S.Dir + "/no-such-clang";
  REQUIRE(requireError(compileWithPolicy(S.P, O)) ==
          O.Clang + ": cannot run the compiler: No such file or directory");
  REQUIRE(listDir(O.ChannelParent).empty());
}
