/// \file
/// The compile stage's interactive host: run `clang -cc1` on one module and answer the
/// greedy allocator's eviction advisor with a policy, over the two FIFOs of LLVM's
/// interactive mode (DESIGN.md, "Facts about LLVM 22").
#pragma once

#include "DecisionLog.h"
#include "policy/FeatureSet.h"
#include "policy/Policy.h"

#include "llvm/Support/Error.h"
#include <functional>
#include <string>
#include <vector>

namespace mlgo {

/// What the host reports about each decision before it replies (tests, inspection).
struct DecisionEvent {
  int CompilerPid;
  const std::string &Function;
  uint64_t Index; ///< the compiler's observation number
  const Observation &Features;
  int64_t Decision; ///< index_to_evict about to be sent
};

struct CompileOptions {
  std::string Clang = "clang-22";
  /// The arguments after `-cc1` (include `-o`); the advisor flags are added.
  std::vector<std::string> Args;
  /// Kill the compiler after this many seconds; 0 waits forever.
  double TimeoutSeconds = 0;
  /// Where the channel directories go (one fresh directory per compile); empty is
  /// the system's temporary directory.
  std::string ChannelParent;
  /// Write every observation and decision there (DecisionLog.h); empty records nothing.
  std::string RecordDecisions;
  std::function<void(const DecisionEvent &)> OnDecision;
};

struct CompileResult {
  uint64_t Decisions = 0;
  uint64_t Functions = 0;     ///< contexts the compiler announced
  bool ChannelOpened = false; ///< false: no function reached the advisor
  double Seconds = 0;
  std::string Diagnostics; ///< the compiler's stderr
};

/// Compiles with \p P: a `default` policy runs the compiler without the advisor; any
/// other answers every decision. Fails (and leaves no process or FIFO behind) when the
/// compiler fails, crashes, breaks the protocol, times out or the host is interrupted.
/// Safe to call from several threads at once.
llvm::Expected<CompileResult> compileWithPolicy(const Policy &P,
                                                const CompileOptions &Options);

} // namespace mlgo
