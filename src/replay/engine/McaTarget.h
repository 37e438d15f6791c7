/// \file
/// The LLVM MC objects that describe one CPU of one target: what both engines and fast
/// replay's span planning read the CPU's scheduling model and instructions from.
#pragma once

#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/Error.h"
#include <memory>

namespace mlgo {

/// The MC objects that describe one CPU of one target; shared by simulators.
class McaTarget {
public:
  /// Fails with an InputError for an unknown triple, an unknown CPU, or a CPU without a
  /// scheduling model.
  /// With \p StackEngine, x86's push, pop, call and ret do not wait for one another's
  /// stack pointer, as on the hardware (mca/McaSimulator.cpp's applyStackEngine).
  static llvm::Expected<std::unique_ptr<McaTarget>>
  create(llvm::StringRef Triple, llvm::StringRef CPU, bool StackEngine = false);
  const llvm::Target &target() const { return *T; }
  const llvm::MCSubtargetInfo &subtarget() const { return *STI; }
  const llvm::MCInstrInfo &instrInfo() const { return *MCII; }
  const llvm::MCRegisterInfo &registerInfo() const { return *MRI; }
  const llvm::MCInstrAnalysis *instrAnalysis() const { return MCIA.get(); }
  /// With the stack engine, x86's stack pointer (push, pop, call and ret use it
  /// implicitly); else none.
  llvm::MCRegister stackPointer() const { return StackPointer; }

private:
  const llvm::Target *T = nullptr;
  std::unique_ptr<llvm::MCRegisterInfo> MRI;
  std::unique_ptr<llvm::MCSubtargetInfo> STI;
  std::unique_ptr<llvm::MCInstrInfo> MCII;
  std::unique_ptr<llvm::MCInstrAnalysis> MCIA;
  llvm::MCRegister StackPointer;
};

} // namespace mlgo
