/// \file
/// Looks CPUs up in the target's processor table (MCSubtargetInfo) before any subtarget
/// is made for them: LLVM prints a warning of its own for a CPU it does not know.
#include "replay/engine/CpuChoice.h"
#include "support/Error.h"

#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include <cstdint>
#include <memory>
#include <utility>

namespace mlgo {
namespace {

/// The target of a triple and its processor table (a subtarget for no CPU in particular).
struct TargetCpus {
  llvm::Triple TT;
  const llvm::Target *Target = nullptr;
  std::unique_ptr<llvm::MCSubtargetInfo> Any;

  static llvm::Expected<TargetCpus> open(llvm::StringRef Triple) {
    TargetCpus T;
    T.TT = llvm::Triple(Triple.empty() ? hostTriple() : Triple.str());
    std::string Why;
    T.Target = llvm::TargetRegistry::lookupTarget(T.TT, Why);
    if (!T.Target)
      return inputError("--mtriple", "no LLVM target for '{}': {}", T.TT.str(), Why);
    T.Any.reset(T.Target->createMCSubtargetInfo(T.TT, "", ""));
    if (!T.Any)
      return stageError("incomplete LLVM target for {}", T.TT.str());
    return T;
  }

  bool knows(llvm::StringRef CPU) const { return Any->isCPUStringValid(CPU); }

  /// The target's features that \p Features has and \p CPU lacks, in LLVM's order.
  std::vector<std::string> lacked(llvm::StringRef CPU,
                                  const llvm::StringMap<bool> &Features) const {
    std::unique_ptr<llvm::MCSubtargetInfo> STI(Target->createMCSubtargetInfo(TT, CPU, ""));
    return lacked(*STI, Features);
  }

  static std::vector<std::string> lacked(const llvm::MCSubtargetInfo &STI,
                                         const llvm::StringMap<bool> &Features) {
    std::vector<std::string> Lacked;
    for (const llvm::SubtargetFeatureKV &KV : STI.getAllProcessorFeatures())
      if (Features.lookup(KV.Key) && !STI.getFeatureBits().test(KV.Value))
        Lacked.push_back(KV.Key);
    return Lacked;
  }

  /// Of the CPUs with a scheduling model, the one whose features differ least from
  /// \p Features: those it lacks plus those it has that \p Features says the host has
  /// not (a feature the host's map does not hold, a tuning one, does not count), and
  /// among those the one that lacks fewest; with how many it lacks.
  std::pair<std::string, size_t> nearest(const llvm::StringMap<bool> &Features) const {
    std::string Best;
    std::pair<size_t, size_t> BestScore{SIZE_MAX, SIZE_MAX};
    for (const llvm::SubtargetSubTypeKV &KV : Any->getAllProcessorDescriptions()) {
      if (!describe(KV.Key).Scheduled)
        continue;
      std::unique_ptr<llvm::MCSubtargetInfo> STI(
          Target->createMCSubtargetInfo(TT, KV.Key, ""));
      size_t Lacked = lacked(*STI, Features).size(), Extra = 0;
      for (const llvm::SubtargetFeatureKV &F : STI->getAllProcessorFeatures())
        Extra += STI->getFeatureBits().test(F.Value) && Features.count(F.Key) &&
                 !Features.lookup(F.Key);
      std::pair<size_t, size_t> Score{Lacked + Extra, Lacked};
      if (Score < BestScore) {
        BestScore = Score;
        Best = KV.Key;
      }
    }
    return {Best, BestScore.second};
  }

  /// Only for a CPU it knows.
  KnownCpu describe(llvm::StringRef CPU) const {
    std::unique_ptr<llvm::MCSubtargetInfo> STI(Target->createMCSubtargetInfo(TT, CPU, ""));
    const llvm::MCSchedModel &SM = STI->getSchedModel();
    unsigned Buffer = SM.MicroOpBufferSize;
    if (SM.hasExtraProcessorInfo() && SM.getExtraProcessorInfo().ReorderBufferSize)
      Buffer = SM.getExtraProcessorInfo().ReorderBufferSize;
    // As the flow engine (flow/FlowModel.cpp) tells an in-order core.
    return {CPU.str(), SM.hasInstrSchedModel(), Buffer < 2};
  }
};

constexpr const char *HowToList = "'--mcpu help' lists them";

/// Why "native" may model another core than the host's, or nothing: under a hypervisor
/// cpuid may report an older model (a Granite Rapids core as a Rocket Lake, whose LLVM
/// model is Ice Lake's), which the host's features then contradict.
std::string lackedWarning(const TargetCpus &T, const HostCpu &Host) {
  std::vector<std::string> Lacked = T.lacked(Host.Name, Host.Features);
  if (Lacked.size() <= LackedFeaturesTolerated)
    return "";
  std::string List;
  for (const std::string &F : Lacked)
    List += (List.empty() ? "" : " ") + F;
  auto [Nearest, NearestLacked] = T.nearest(Host.Features);
  return "the host CPU reports itself as '" + Host.Name + "' but has " +
         std::to_string(Lacked.size()) + " features it lacks (" + List +
         "), as a hypervisor may report another core; of the CPUs LLVM models, " + Nearest +
         " is nearest by features (" + std::to_string(NearestLacked) +
         " lacked): --mcpu " + Nearest + " models it";
}

} // namespace

std::string hostTriple() { return llvm::sys::getProcessTriple(); }

HostCpu HostCpu::thisMachine() {
  return {llvm::sys::getHostCPUName().str(), llvm::sys::getHostCPUFeatures()};
}

llvm::Expected<CpuChoice> chooseCpu(llvm::StringRef Requested, llvm::StringRef Triple,
                                    const HostCpu *Given) {
  auto T = TargetCpus::open(Triple);
  if (!T)
    return T.takeError();
  if (!Requested.empty() && Requested != "native") {
    if (!T->knows(Requested))
      return inputError("--mcpu", "'{}' is not a CPU that LLVM knows for {} ({})", Requested,
                        T->TT.str(), HowToList);
    if (!T->describe(Requested).Scheduled)
      return inputError("--mcpu",
                        "'{}' has no scheduling model to simulate ('--mcpu help' lists the "
                        "CPUs that have one)",
                        Requested);
    return CpuChoice{Requested.str(), ""};
  }
  const HostCpu Machine = Given ? HostCpu() : HostCpu::thisMachine();
  const HostCpu &H = Given ? *Given : Machine;
  const std::string &Host = H.Name;
  // getHostCPUName says "generic" for a CPU it does not recognize.
  std::string Why;
  if (Host.empty() || Host == "generic" || !T->knows(Host))
    Why = "LLVM does not know the host CPU" + (Host.empty() ? "" : " ('" + Host + "')");
  else if (!T->describe(Host).Scheduled)
    Why = "LLVM has no scheduling model for the host CPU '" + Host + "'";
  else
    return CpuChoice{Host, lackedWarning(*T, H)};
  if (!T->knows(FallbackCpu) || !T->describe(FallbackCpu).Scheduled)
    return inputError("--mcpu", "{}; name a CPU ({})", Why, HowToList);
  return CpuChoice{FallbackCpu, Why + "; modeling " + FallbackCpu +
                                    " instead (--mcpu chooses; " + HowToList + ")"};
}

llvm::Expected<std::vector<KnownCpu>> knownCpus(llvm::StringRef Triple) {
  auto T = TargetCpus::open(Triple);
  if (!T)
    return T.takeError();
  std::vector<KnownCpu> Cpus;
  for (const llvm::SubtargetSubTypeKV &KV : T->Any->getAllProcessorDescriptions())
    Cpus.push_back(T->describe(KV.Key));
  return Cpus;
}

} // namespace mlgo
