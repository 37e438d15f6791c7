/// \file
/// Choosing a target's flow hooks.
#include "replay/target/FlowTargets.h"
#include "X86/X86FlowTarget.h"
#include "support/Error.h"

#include "llvm/TargetParser/Triple.h"

namespace mlgo {

llvm::Expected<std::unique_ptr<FlowTarget>> createFlowTarget(const McaTarget &Target) {
  llvm::Triple TT(Target.subtarget().getTargetTriple());
  if (!TT.isX86() || !TT.isArch64Bit())
    return inputError("--engine", "the flow engine models x86-64 only, not {}; use --engine mca",
                      TT.str());
  return std::make_unique<X86FlowTarget>(Target);
}

} // namespace mlgo
