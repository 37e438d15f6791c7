#include "CorpusBuilds.h"
#include "TestSupport.h"
#include "corpus/Corpus.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlgo;
using namespace mlgo::test;

using Args = std::vector<std::string>;

TEST_CASE("options that load code are refused", "[corpus]") {
  for (const Args &Bad : {Args{"-load", "evil.so"}, Args{"-fpass-plugin=evil.so"},
                          Args{"-fplugin=evil.so"}, Args{"-mllvm", "-load=evil.so"},
                          Args{"-mllvm", "-load", "-mllvm", "evil.so"},
                          Args{"-add-plugin", "evil"}, Args{"-load-pass-plugin=evil.so"}}) {
    Args Command = {"-triple", "x86_64-pc-linux-gnu"};
    Command.insert(Command.end(), Bad.begin(), Bad.end());
    CHECK_THAT(requireError(sanitizeCommand(Command, "m.cmd")),
               Catch::StartsWith("m.cmd: refusing option '") &&
                   Catch::EndsWith("it loads code into the compiler"));
  }
  CHECK(requireError(sanitizeCommand(Args{"-mllvm", "--load=evil.so"}, "m.cmd")) ==
        "m.cmd: refusing option '-mllvm --load=evil.so': it loads code into the compiler");
}

TEST_CASE("options that write files, the input and the action are dropped, kept ones stay "
          "in order", "[corpus]") {
  Args Command = {"-triple", "x86_64-pc-linux-gnu", "-O2", "-o", "/etc/x.o",
                  "-dependency-file", "/tmp/d", "-MT", "a.o", "-sys-header-deps",
                  "-split-dwarf-file", "a.dwo", "-split-dwarf-output", "/tmp/a.dwo",
                  "-mllvm", "-info-output-file=/tmp/stats", "-opt-record-file", "a.yaml",
                  "-mllvm", "-regalloc-evict-interactive-channel-base=/tmp/ch",
                  "-fthinlto-index=x.thinlto.bc", "-x", "c", "-mllvm", "-inline-threshold=5",
                  "-emit-obj", "-stats-file=/tmp/s", "-stats-file-append", "-ftime-report",
                  "-ftime-report=per-pass", "-ftime-trace", "-ftime-trace=/tmp/t.json",
                  "-diagnostic-log-file", "/tmp/diag", "-mllvm", "--info-output-file=/tmp/i",
                  "-emit-llvm", "-S", "-emit-llvm-bc", "-DX=1", "-I", "inc", "-Wall",
                  "-std=c11", "input.c", "-mllvm", "-stress-regalloc=4", "-target-feature",
                  "-avx"};
  CHECK(requireOk(sanitizeCommand(Command, "m.cmd")) ==
        Args{"-triple", "x86_64-pc-linux-gnu", "-O2", "-mllvm", "-inline-threshold=5",
             "-mllvm", "-stress-regalloc=4", "-target-feature", "-avx"});
}

TEST_CASE("a response file is refused wherever it is", "[corpus]") {
  for (const Args &Bad : {Args{"@rsp"}, Args{"-target-cpu", "@rsp"},
                          Args{"-mllvm", "@rsp"}, Args{"-D", "@rsp"}})
    CHECK(requireError(sanitizeCommand(Bad, "m.cmd")) ==
          "m.cmd: refusing '@rsp': clang would read more options from that response file");
}

TEST_CASE("options on no list are refused, not kept or silently dropped", "[corpus]") {
  // A file-writing option the tables do not name, an action, a made-up option.
  for (const char *Bad : {"-fverify-debuginfo-preserve-export=/tmp/x", "-ast-dump",
                          "-fno-such-option", "--triple=x", "-no-integrated-as"})
    CHECK(requireError(sanitizeCommand(Args{"-O2", Bad}, "m.cmd")) ==
          "m.cmd: refusing option '" + std::string(Bad) +
              "': not one of the cc1 options known to be safe (see README, extract-corpus)");
  for (const char *Bad : {"-debug-counter=x", "-time-trace-file=/tmp/t", "-view-cfg",
                          "evil.so"})
    CHECK(requireError(sanitizeCommand(Args{"-mllvm", Bad}, "m.cmd")) ==
          "m.cmd: refusing option '-mllvm " + std::string(Bad) +
              "': not one of the LLVM options known to be safe (see README, extract-corpus)");
  CHECK(requireError(sanitizeCommand(Args{"-O2", "-triple"}, "m.cmd")) ==
        "m.cmd: option '-triple' has no value");
  CHECK(requireError(sanitizeCommand(Args{"-mllvm"}, "m.cmd")) ==
        "m.cmd: option '-mllvm' has no value");
}

TEST_CASE("a sanitized real command writes nothing but its output", "[corpus]") {
  std::string Dir = makeTempDir("sanitize");
  compile(Dir, "a.c", "int f(int x) { return x * 3; }\n", "a.o",
          std::string(EmbedFlags) +
              " -MD -MF deps.d -g -gsplit-dwarf -fsave-optimization-record -ftime-trace"
              " -DFOO=1 -I. -Wall -std=c11 -ffunction-sections -fdata-sections"
              " -fno-omit-frame-pointer -fstack-protector-strong -fno-plt -mcmodel=small"
              " -march=x86-64-v3 -fsanitize=undefined -mllvm -stress-regalloc=4");
  std::map<std::string, std::string> Cmd = readSections(Dir + "/a.o", ".llvmcmd");
  Args Recorded = splitCommand(Cmd[".llvmcmd"]);
  std::string Joined;
  for (const std::string &A : Recorded)
    Joined += A + " ";
  // The recorded command really does name the outputs we must drop.
  REQUIRE_THAT(Joined, Catch::Contains("-dependency-file") &&
                           Catch::Contains("-split-dwarf-output") &&
                           Catch::Contains("-opt-record-file"));

  std::string Run = makeTempDir("sanitize-run");
  writeFile(Run + "/a.bc", readSections(Dir + "/a.o", ".llvmbc")[".llvmbc"]);
  Args Clean = requireOk(sanitizeCommand(Args(Recorded.begin() + 1, Recorded.end()), "a"));
  std::string Command = std::string(ClangPath) + " -cc1";
  for (const std::string &A : Clean)
    Command += " " + shellQuote(A);
  Command += " -emit-obj -x ir a.bc -o out.o";
  CommandResult R = runShell(Command, Run);
  INFO(R.Output);
  REQUIRE(R.ExitCode == 0);
  std::vector<std::string> Files;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Run, EC), End; It != End && !EC; It.increment(EC))
    Files.push_back(llvm::sys::path::filename(It->path()).str());
  std::sort(Files.begin(), Files.end());
  CHECK(Files == std::vector<std::string>{"a.bc", "out.o"});
  // Byte for byte the traced code: nothing that shapes it was dropped.
  CHECK(readSections(Run + "/out.o", ".text") == readSections(Dir + "/a.o", ".text"));
}
