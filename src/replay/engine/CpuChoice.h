/// \file
/// Which CPU replay models. --mcpu names one, or says "native": the host's CPU as LLVM
/// names it (the CLI's default), or FallbackCpu where LLVM cannot simulate the host's.
#pragma once

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace mlgo {

/// What "native" models when LLVM has no scheduling model for the host's CPU.
inline constexpr const char *FallbackCpu = "skylake";

struct CpuChoice {
  std::string Name;    ///< the CPU to model, never "native"
  std::string Warning; ///< nonempty when "native" fell back to FallbackCpu, or when the
                       ///< host has instruction sets its CPU's name lacks: why
};

/// A CPU as the host describes itself: its name (cpuid's family and model, which a
/// hypervisor may report for another core) and the features it has.
struct HostCpu {
  std::string Name;
  llvm::StringMap<bool> Features; ///< LLVM's feature names, true where the host has one
  static HostCpu thisMachine();   ///< llvm::sys::getHostCPUName() and its features
};

/// How many of the host's features its CPU's name may lack before "native" warns: LLVM's
/// own definition of the right core lacks one or two the host reports (rtm, avx10.1).
inline constexpr size_t LackedFeaturesTolerated = 3;

/// Resolves \p Requested for \p Triple (empty: this process's). "native" (or empty) is
/// \p Host's name (null: HostCpu::thisMachine()) when LLVM knows it for the triple and has
/// a scheduling model for it, else FallbackCpu with a Warning; a Warning too, naming the
/// CPU whose features are nearest, when the host has more than LackedFeaturesTolerated
/// features that its name lacks. Any other name must be such a CPU; if not, an
/// InputError blaming --mcpu that says how to list them.
llvm::Expected<CpuChoice> chooseCpu(llvm::StringRef Requested, llvm::StringRef Triple,
                                    const HostCpu *Host = nullptr);

struct KnownCpu {
  std::string Name;
  bool Scheduled = false; ///< LLVM has a scheduling model for it: replay can time it
  bool InOrder = false;   ///< an in-order core: the MCA engine only
};

/// The CPUs LLVM knows for \p Triple (empty: this process's), in LLVM's order (by name).
llvm::Expected<std::vector<KnownCpu>> knownCpus(llvm::StringRef Triple);

/// The triple "native" and the listing use when none is given: this process's.
std::string hostTriple();

} // namespace mlgo
