/// \file
/// Looks CPUs up in the target's processor table (MCSubtargetInfo) before any subtarget
/// is made for them: LLVM prints a warning of its own for a CPU it does not know.
#include "replay/engine/CpuChoice.h"
#include "support/Error.h"

#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include <memory>

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

} // namespace

std::string hostTriple() { return llvm::sys::getProcessTriple(); }

llvm::Expected<CpuChoice> chooseCpu(llvm::StringRef Requested, llvm::StringRef Triple,
                                    llvm::StringRef HostCpu) {
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
  std::string Host = HostCpu.empty() ? llvm::sys::getHostCPUName().str() : HostCpu.str();
  // getHostCPUName says "generic" for a CPU it does not recognize.
  std::string Why;
  if (Host.empty() || Host == "generic" || !T->knows(Host))
    Why = "LLVM does not know the host CPU" + (Host.empty() ? "" : " ('" + Host + "')");
  else if (!T->describe(Host).Scheduled)
    Why = "LLVM has no scheduling model for the host CPU '" + Host + "'";
  else
    return CpuChoice{Host, ""};
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
