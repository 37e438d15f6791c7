/// \file
/// Attributing a core's retirements to the instructions it was given, in order.
#include "replay/engine/InstructionProfile.h"

#include <cassert>

namespace mlgo {

void mergeProfile(InstructionProfile &Into, const InstructionProfile &From) {
  if (Into.size() < From.size())
    Into.resize(From.size());
  for (size_t F = 0; F < From.size(); ++F)
    for (const auto &[Address, Cost] : From[F]) {
      InstructionCost &Sum = Into[F][Address];
      Sum.Cycles += Cost.Cycles;
      Sum.Executions += Cost.Executions;
    }
}

InstructionAttribution::InstructionAttribution(CoreSimulator &Core, uint32_t NumFunctions)
    : Core(Core), ByAddress(NumFunctions) {
  Core.recordInstructionCycles(Retired);
}

void InstructionAttribution::added(const RefilledCode &Code) {
  auto &Known = ByAddress[Code.Function];
  for (uint64_t Address : Code.Addresses) {
    InstructionCost *&Cost = Known[Address];
    if (!Cost)
      Cost = &Costs.emplace_back();
    Unretired.push_back(Cost);
  }
  attributeRetired();
}

void InstructionAttribution::attributeRetired() {
  // Cores retire in the order instructions were added: the i-th retirement is the
  // i-th instruction not yet retired.
  assert(Retired.size() <= Unretired.size() - Next && "retired what was not added");
  for (uint32_t Cycles : Retired) {
    Last = Unretired[Next++];
    Last->Cycles += Cycles;
    ++Last->Executions;
    Attributed += Cycles;
  }
  Retired.clear();
  // Forget what retired, now and then rather than per instruction.
  if (Next > 4096 && Next * 2 > Unretired.size()) {
    Unretired.erase(Unretired.begin(), Unretired.begin() + Next);
    Next = 0;
  }
}

void InstructionAttribution::finished() {
  attributeRetired();
  if (Last && Core.cycles() > Attributed) {
    Last->Cycles += Core.cycles() - Attributed;
    Attributed = Core.cycles();
  }
}

InstructionProfile InstructionAttribution::profile() const {
  InstructionProfile Out(ByAddress.size());
  for (size_t F = 0; F < ByAddress.size(); ++F)
    for (const auto &[Address, Cost] : ByAddress[F])
      Out[F][Address] = *Cost;
  return Out;
}

} // namespace mlgo
