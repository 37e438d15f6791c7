/// \file
/// A check for imported traces: the instructions a trace reports inside the binary must
/// have the lengths of the binary's own code there. A trace of another program, or of
/// another build of this one, fails it within a few instructions, where it would
/// otherwise yield a segment trace of nonsense.
#pragma once

#include "CollectorStream.h"
#include "code/Disassembler.h"

#include "llvm/Object/ObjectFile.h"
#include <memory>
#include <string>

namespace mlgo {

/// Passes every record on to \p Next, checking each superblock of the main executable
/// once, when it is defined.
class CodeLengthCheck : public CollectorStreamListener {
public:
  /// \p Binary is the binary the trace is said to be of; errors name \p Input.
  static llvm::Expected<std::unique_ptr<CodeLengthCheck>>
  create(llvm::StringRef Binary, llvm::StringRef Input, CollectorStreamListener &Next);

  llvm::Error onModule(const CollectorModule &M) override;
  llvm::Error onSuperblock(const CollectorSuperblock &S, uint32_t Index) override;
  llvm::Error onRun(const CollectorRun &R) override { return Next.onRun(R); }

private:
  CodeLengthCheck(CollectorStreamListener &Next) : Next(Next) {}
  /// The length of the instruction at link-time \p Address, 0 if it cannot be decoded,
  /// or std::nullopt outside the binary's code sections.
  std::optional<uint32_t> decodedLength(uint64_t Address) const;
  /// Valgrind reports a client request (a 16-byte preamble of 4 instructions and the
  /// request's own instruction) as one instruction of 19 bytes.
  bool isClientRequest(uint64_t Address, uint32_t Length) const;

  CollectorStreamListener &Next;
  std::string Binary, Input;
  llvm::object::OwningBinary<llvm::object::ObjectFile> Object;
  std::unique_ptr<Disassembler> Dis;
  struct Code {
    uint64_t Address;
    llvm::StringRef Bytes;
  };
  std::vector<Code> Sections;
  uint32_t BinaryModule = 0;
  int64_t Bias = 0;
};

} // namespace mlgo
