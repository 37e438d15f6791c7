// --mcpu's names: "native" is the host's CPU when LLVM can simulate it, skylake with a
// warning when not; other names must be CPUs LLVM models.
#include "TestSupport.h"
#include "replay/engine/CpuChoice.h"

#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include <memory>
#include <algorithm>

using namespace mlgo;
using namespace mlgo::test;

namespace {
const char *const X86 = "x86_64-unknown-linux-gnu";

/// A host that names itself \p Name and has the features LLVM gives \p Like, and not the
/// target's others (none: no features to check).
HostCpu host(const std::string &Name, const std::string &Like = "") {
  HostCpu H{Name, {}};
  if (Like.empty())
    return H;
  std::string Why;
  const llvm::Target *T = llvm::TargetRegistry::lookupTarget(llvm::Triple(X86), Why);
  REQUIRE(T);
  std::unique_ptr<llvm::MCSubtargetInfo> STI(
      T->createMCSubtargetInfo(llvm::Triple(X86), Like, ""));
  for (const llvm::SubtargetFeatureKV &KV : STI->getAllProcessorFeatures())
    H.Features[KV.Key] = STI->getFeatureBits().test(KV.Value);
  return H;
}
} // namespace

TEST_CASE("native is the host's CPU as LLVM names it", "[replay]") {
  initializeTargets();
  const HostCpu Zen4 = host("znver4"), Spr = host("sapphirerapids");
  CpuChoice C = requireOk(chooseCpu("native", X86, &Zen4));
  CHECK(C.Name == "znver4");
  CHECK(C.Warning.empty());
  CHECK(requireOk(chooseCpu("", X86, &Spr)).Name == "sapphirerapids");
  // Without a host name given: getHostCPUName's, on this machine's own target.
  std::string Host = llvm::sys::getHostCPUName().str();
  CpuChoice Here = requireOk(chooseCpu("native", ""));
  CHECK((Here.Name == Host || (Here.Name == FallbackCpu && !Here.Warning.empty())));
}

TEST_CASE("a host CPU LLVM cannot simulate falls back to skylake, saying why",
          "[replay]") {
  initializeTargets();
  const HostCpu P4 = host("pentium4"), Generic = host("generic"),
                Future = host("pentium-of-the-future");
  CpuChoice Old = requireOk(chooseCpu("native", X86, &P4));
  CHECK(Old.Name == "skylake");
  CHECK(Old.Warning == "LLVM has no scheduling model for the host CPU 'pentium4'; modeling "
                       "skylake instead (--mcpu chooses; '--mcpu help' lists them)");
  CpuChoice Unknown = requireOk(chooseCpu("native", X86, &Generic));
  CHECK(Unknown.Name == "skylake");
  CHECK(Unknown.Warning == "LLVM does not know the host CPU ('generic'); modeling skylake "
                           "instead (--mcpu chooses; '--mcpu help' lists them)");
  CHECK(requireOk(chooseCpu("native", X86, &Future)).Name == "skylake");
  // Where skylake is no CPU of the target either, the user must name one.
  CHECK(requireError(chooseCpu("native", "aarch64-unknown-linux-gnu", &P4)) ==
        "--mcpu: LLVM does not know the host CPU ('pentium4'); name a CPU ('--mcpu help' "
        "lists them)");
}

TEST_CASE("a host whose features its name lacks is modeled as named, with a warning "
          "naming the nearest CPU", "[replay]") {
  initializeTargets();
  // As KVM showed a Granite Rapids core: cpuid's model that of a Rocket Lake.
  const HostCpu Disguised = host("rocketlake", "graniterapids");
  CpuChoice C = requireOk(chooseCpu("native", X86, &Disguised));
  CHECK(C.Name == "rocketlake");
  CHECK(C.Warning.rfind("the host CPU reports itself as 'rocketlake' but has ", 0) == 0);
  CHECK(C.Warning.find("amx-tile") != std::string::npos);
  CHECK(C.Warning.find("of the CPUs LLVM models, graniterapids is nearest by features (0 "
                       "lacked): --mcpu graniterapids models it") != std::string::npos);
  // The right name: no warning; nor where the host has fewer features than its name.
  const HostCpu Itself = host("graniterapids", "graniterapids");
  CHECK(requireOk(chooseCpu("native", X86, &Itself)).Warning.empty());
  const HostCpu Older = host("graniterapids", "skylake");
  CHECK(requireOk(chooseCpu("native", X86, &Older)).Warning.empty());
  // A named CPU is modeled as named.
  CHECK(requireOk(chooseCpu("skylake", X86, &Disguised)).Warning.empty());
}

TEST_CASE("a named CPU must be one LLVM models", "[replay]") {
  initializeTargets();
  const HostCpu Zen4 = host("znver4");
  CHECK(requireOk(chooseCpu("skylake", X86, &Zen4)).Name == "skylake");
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
