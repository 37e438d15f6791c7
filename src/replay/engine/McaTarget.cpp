/// \file
/// Setting up LLVM's MC objects for a triple and a CPU.
#include "replay/engine/McaTarget.h"
#include "support/Error.h"

#include "llvm/TargetParser/Triple.h"

namespace mlgo {

llvm::Expected<std::unique_ptr<McaTarget>>
McaTarget::create(llvm::StringRef Triple, llvm::StringRef CPU, bool StackEngine) {
  llvm::Triple TT(Triple);
  std::string Why;
  auto Target = std::unique_ptr<McaTarget>(new McaTarget());
  Target->T = llvm::TargetRegistry::lookupTarget(TT, Why);
  if (!Target->T)
    return inputError("--mtriple", "no LLVM target for '{}': {}", Triple, Why);
  Target->MRI.reset(Target->T->createMCRegInfo(TT));
  // Asked before a subtarget is made for CPU: LLVM warns on stderr of one it does not know.
  std::unique_ptr<llvm::MCSubtargetInfo> AnyCpu(Target->T->createMCSubtargetInfo(TT, "", ""));
  if (AnyCpu && !AnyCpu->isCPUStringValid(CPU))
    return inputError("--mcpu", "'{}' is not a CPU that LLVM knows for {} ('--mcpu help' "
                      "lists them)", CPU, Triple);
  Target->STI.reset(Target->T->createMCSubtargetInfo(TT, CPU, ""));
  Target->MCII.reset(Target->T->createMCInstrInfo());
  if (!Target->MRI || !Target->STI || !Target->MCII)
    return stageError("incomplete LLVM target for {}", Triple);
  if (!Target->STI->getSchedModel().hasInstrSchedModel())
    return inputError("--mcpu", "'{}' has no scheduling model to simulate ('--mcpu help' "
                      "lists the CPUs that have one)", CPU);
  Target->MCIA.reset(Target->T->createMCInstrAnalysis(Target->MCII.get()));
  if (StackEngine && TT.isX86())
    for (unsigned Reg = 1; Reg < Target->MRI->getNumRegs(); ++Reg)
      if (llvm::StringRef(Target->MRI->getName(Reg)) == (TT.isArch64Bit() ? "RSP" : "ESP"))
        Target->StackPointer = Reg;
  return Target;
}

} // namespace mlgo
