// What the tests of fast replay's spans share: a planner on skylake, and events of
// 4 instructions whose code differs from the reference's where a test says.
#pragma once

#include "TestSupport.h"
#include "replay/fast/SpanPlan.h"
#include "replay/mca/McaSimulator.h"

#include "llvm/MC/MCInstBuilder.h"
#include <functional>

namespace mlgo::test {

/// Events of 4 instructions each, numbered 0, 1, ...: same code in variant and
/// reference except at the events given.
struct Events {
  std::vector<llvm::MCInst> Same, Other;
  std::vector<uint64_t> Addresses = std::vector<uint64_t>(4);

  Events() {
    for (unsigned I = 0; I < 4; ++I) {
      Same.push_back(llvm::MCInstBuilder(1));
      Other.push_back(llvm::MCInstBuilder(2));
    }
  }
  /// Event \p E, its code the variant's other code if \p Differs.
  RefilledCode event(uint64_t E, bool Differs) const {
    return {7, E, Differs ? llvm::ArrayRef(Other) : llvm::ArrayRef(Same), Addresses, Same,
            Addresses};
  }
  /// Plans \p Count events, event E differing when Differs(E).
  std::vector<Span> plan(SpanPlanner &Planner, uint64_t Count,
                         std::function<bool(uint64_t)> Differs) {
    for (uint64_t E = 0; E < Count; ++E)
      requireSuccess(Planner.onCode(0, event(E, Differs(E))));
    Planner.finish();
    return Planner.takeSpans();
  }
};

/// What a SpanPlanner needs: a target (skylake).
struct Planning {
  std::unique_ptr<McaTarget> Target;

  Planning() {
    initializeTargets();
    Target = requireOk(McaTarget::create("x86_64-unknown-linux-gnu", "skylake"));
  }
  SpanPlanner planner(const SpanSettings &Settings) { return SpanPlanner(Settings, *Target); }
};

} // namespace mlgo::test
