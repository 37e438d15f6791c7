/// \file
/// LLVM MC objects for decoding one target's machine code: instruction lengths,
/// whether an instruction transfers control (call, branch, return), whether it accesses
/// a stack slot, and its text.
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/Error.h"
#include "llvm/TargetParser/Triple.h"
#include <memory>

namespace mlgo {

struct DecodedInstruction {
  uint32_t Size;
  /// A call, branch, return or other terminator: a segment ends after it.
  bool EndsSegment;
  bool IsCall;
};

/// How an instruction accesses a stack slot: memory at [rsp + c] or [rbp + c] without
/// index (x86-64). Register allocation's spills are stores there, its reloads loads.
struct StackSlotAccess {
  bool Stores = false, Loads = false;
  bool any() const { return Stores || Loads; }
};

class Disassembler {
public:
  /// \p CPU may be empty (generic). Fails for a target LLVM was not built with.
  static llvm::Expected<std::unique_ptr<Disassembler>> create(const llvm::Triple &TT,
                                                              llvm::StringRef CPU = "");

  /// Decodes the instruction at the start of \p Bytes; std::nullopt if invalid.
  std::optional<DecodedInstruction> decode(llvm::ArrayRef<uint8_t> Bytes,
                                           uint64_t Address) const;
  /// Decodes into \p Inst; its size, or std::nullopt if invalid.
  std::optional<uint32_t> decode(llvm::ArrayRef<uint8_t> Bytes, uint64_t Address,
                                 llvm::MCInst &Inst) const;

  /// \p Inst (decoded at \p Address, \p Size bytes) as text: Intel syntax on x86,
  /// branch targets as addresses.
  std::string print(const llvm::MCInst &Inst, uint64_t Address, uint32_t Size) const;
  /// Whether \p Inst stores to or loads from a stack slot; on other targets than
  /// x86-64, never.
  StackSlotAccess stackSlotAccess(const llvm::MCInst &Inst) const;
  /// Whether \p Inst is a data load (DataLoad.h); on other targets than x86-64, never.
  bool isDataLoad(const llvm::MCInst &Inst) const;

  const llvm::MCInstrInfo &instrInfo() const { return *MII; }
  const llvm::MCRegisterInfo &registerInfo() const { return *MRI; }

private:
  std::unique_ptr<const llvm::MCRegisterInfo> MRI;
  std::unique_ptr<const llvm::MCAsmInfo> MAI;
  std::unique_ptr<const llvm::MCSubtargetInfo> STI;
  std::unique_ptr<const llvm::MCInstrInfo> MII;
  std::unique_ptr<llvm::MCContext> Ctx;
  std::unique_ptr<const llvm::MCDisassembler> Dis;
  std::unique_ptr<llvm::MCInstPrinter> Printer;
  llvm::MCRegister FrameRegisters[2]; ///< rsp and rbp on x86-64, else none
  bool IsX86 = false;
};

} // namespace mlgo
