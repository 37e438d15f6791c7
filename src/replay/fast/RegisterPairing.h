/// \file
/// Code that differs from the reference's only by its register names times alike in
/// MCA, as long as every read in the variant reads the value that the same read in the
/// reference reads: MCA's dependencies are the same, so is every cycle. Policies that
/// differ a little mostly rename, and differently from live range to live range, so the
/// pairing of the variant's registers with the reference's is followed along the trace:
/// a write pairs the two registers written, a read checks that the two registers read
/// are paired. Values written long ago (Horizon instructions, past the reorder buffer)
/// delay no read, so reads of such values time alike whichever registers hold them.
#pragma once

#include "replay/fast/RegisterAccesses.h"

#include <vector>

namespace mlgo {

class RegisterPairing {
public:
  RegisterPairing(unsigned NumRegisters, uint32_t Horizon, unsigned ProgramCounter);

  /// Follows code of the same shape on both sides (the same instructions but for
  /// register names): whether it times alike.
  bool followAlike(const RegisterAccesses &Variant, const RegisterAccesses &Reference);
  /// Follows the same code on both sides: whether it times alike.
  bool followSame(const RegisterAccesses &Code);
  /// Follows code that differs, given the instructions that still match (\p Matches:
  /// pairs of indices into Variant and Reference, in order): they pair what they write,
  /// while what only one side writes is paired with nothing.
  void followDifferent(const RegisterAccesses &Variant, const RegisterAccesses &Reference,
                       llvm::ArrayRef<std::pair<uint32_t, uint32_t>> Matches);

  /// Whether every register holds the same value on both sides.
  bool isIdentity() const { return Renamed == 0; }

private:
  static constexpr uint16_t Nothing = 0;

  /// Follows instruction \p I of \p Variant and \p J of \p Reference, alike in shape:
  /// whether it reads the same values.
  bool followInstructions(const RegisterAccesses &Variant, uint32_t I,
                          const RegisterAccesses &Reference, uint32_t J);
  /// Follows instruction \p I of \p Variant, which the reference does not run.
  void followVariantOnly(const RegisterAccesses &Variant, uint32_t I);
  void followReferenceOnly(const RegisterAccesses &Reference, uint32_t J);
  bool read(uint16_t InReference, uint16_t InVariant);
  void pair(uint16_t InReference, uint16_t InVariant);
  void setVariantOf(uint16_t InReference, uint16_t InVariant);
  void unpairReference(uint16_t InReference);
  void unpairVariant(uint16_t InVariant);
  void noteWrites(const RegisterAccesses &Code, std::vector<uint64_t> &LastWrite,
                  uint64_t Clock);

  /// Per reference family, the variant family holding its value (Nothing: none).
  std::vector<uint16_t> VariantOf;
  /// Per variant family, the reference family whose value it holds.
  std::vector<uint16_t> ReferenceOf;
  unsigned Renamed = 0; ///< families f with VariantOf[f] != f
  std::vector<uint64_t> VariantWritten, ReferenceWritten; ///< per family, when
  uint64_t VariantClock, ReferenceClock;                  ///< instructions followed
  uint32_t Horizon;
  uint16_t ProgramCounter;
};

} // namespace mlgo
