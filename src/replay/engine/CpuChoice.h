/// \file
/// Which CPU replay models. --mcpu names one, or says "native": the host's CPU as LLVM
/// names it (the CLI's default), or FallbackCpu where LLVM cannot simulate the host's.
#pragma once

#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace mlgo {

/// What "native" models when LLVM has no scheduling model for the host's CPU.
inline constexpr const char *FallbackCpu = "skylake";

struct CpuChoice {
  std::string Name;    ///< the CPU to model, never "native"
  std::string Warning; ///< nonempty when "native" fell back to FallbackCpu: why
};

/// Resolves \p Requested for \p Triple (empty: this process's). "native" (or empty) is
/// \p HostCpu (empty: llvm::sys::getHostCPUName()) when LLVM knows it for the triple and
/// has a scheduling model for it, else FallbackCpu with a Warning. Any other name must be
/// such a CPU; if not, an InputError blaming --mcpu that says how to list them.
llvm::Expected<CpuChoice> chooseCpu(llvm::StringRef Requested, llvm::StringRef Triple,
                                    llvm::StringRef HostCpu = "");

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
