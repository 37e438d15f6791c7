// --mcpu's names: "native" is the host's CPU when LLVM can simulate it, skylake with a
// warning when not; other names must be CPUs LLVM models.
#include "TestSupport.h"
#include "replay/engine/CpuChoice.h"

#include "llvm/TargetParser/Host.h"
#include <algorithm>

using namespace mlgo;
using namespace mlgo::test;

namespace {
const char *const X86 = "x86_64-unknown-linux-gnu";
}

TEST_CASE("native is the host's CPU as LLVM names it", "[replay]") {
  initializeTargets();
  CpuChoice C = requireOk(chooseCpu("native", X86, "znver4"));
  CHECK(C.Name == "znver4");
  CHECK(C.Warning.empty());
  CHECK(requireOk(chooseCpu("", X86, "sapphirerapids")).Name == "sapphirerapids");
  // Without a host name given: getHostCPUName's, on this machine's own target.
  std::string Host = llvm::sys::getHostCPUName().str();
  CpuChoice Here = requireOk(chooseCpu("native", ""));
  CHECK(Here.Name == (Here.Warning.empty() ? Host : std::string(FallbackCpu)));
}

TEST_CASE("a host CPU LLVM cannot simulate falls back to skylake, saying why",
          "[replay]") {
  initializeTargets();
  CpuChoice Old = requireOk(chooseCpu("native", X86, "pentium4"));
  CHECK(Old.Name == "skylake");
  CHECK(Old.Warning == "LLVM has no scheduling model for the host CPU 'pentium4'; modeling "
                       "skylake instead (--mcpu chooses; '--mcpu help' lists them)");
  CpuChoice Unknown = requireOk(chooseCpu("native", X86, "generic"));
  CHECK(Unknown.Name == "skylake");
  CHECK(Unknown.Warning == "LLVM does not know the host CPU ('generic'); modeling skylake "
                           "instead (--mcpu chooses; '--mcpu help' lists them)");
  CHECK(requireOk(chooseCpu("native", X86, "pentium-of-the-future")).Name == "skylake");
  // Where skylake is no CPU of the target either, the user must name one.
  CHECK(requireError(chooseCpu("native", "aarch64-unknown-linux-gnu", "pentium4")) ==
        "--mcpu: LLVM does not know the host CPU ('pentium4'); name a CPU ('--mcpu help' "
        "lists them)");
}

TEST_CASE("a named CPU must be one LLVM models", "[replay]") {
  initializeTargets();
  CHECK(requireOk(chooseCpu("skylake", X86, "znver4")).Name == "skylake");
  CHECK(requireError(chooseCpu("pentium-of-the-future", X86)) ==
        "--mcpu: 'pentium-of-the-future' is not a CPU that LLVM knows for "
        "x86_64-unknown-linux-gnu ('--mcpu help' lists them)");
  CHECK(requireError(chooseCpu("pentium4", X86)) ==
        "--mcpu: 'pentium4' has no scheduling model to simulate ('--mcpu help' lists the "
        "CPUs that have one)");
  CHECK(requireError(chooseCpu("skylake", "nonsense-triple")).rfind(
            "--mtriple: no LLVM target for 'nonsense-triple'", 0) == 0);
}

TEST_CASE("the CPUs of a target, with and without a scheduling model", "[replay]") {
  initializeTargets();
  std::vector<KnownCpu> Cpus = requireOk(knownCpus(X86));
  auto Find = [&](llvm::StringRef Name) {
    auto It = std::find_if(Cpus.begin(), Cpus.end(),
                           [&](const KnownCpu &C) { return C.Name == Name; });
    REQUIRE(It != Cpus.end());
    return *It;
  };
  CHECK(Find("skylake").Scheduled);
  CHECK(!Find("skylake").InOrder);
  CHECK(!Find("pentium4").Scheduled);
  CHECK(Find("bonnell").Scheduled);
  CHECK(Find("bonnell").InOrder);
  CHECK(std::is_sorted(Cpus.begin(), Cpus.end(),
                       [](const KnownCpu &A, const KnownCpu &B) { return A.Name < B.Name; }));
}
