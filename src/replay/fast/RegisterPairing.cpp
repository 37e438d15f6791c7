/// \file
/// Following which variant register holds each reference register's value.
#include "replay/fast/RegisterPairing.h"

#include <numeric>

namespace mlgo {

RegisterPairing::RegisterPairing(unsigned NumRegisters, uint32_t Horizon,
                                 unsigned ProgramCounter)
    : VariantOf(NumRegisters), ReferenceOf(NumRegisters), VariantWritten(NumRegisters),
      ReferenceWritten(NumRegisters), VariantClock(Horizon), ReferenceClock(Horizon),
      Horizon(Horizon), ProgramCounter(ProgramCounter) {
  // Both sides start alike: what came before the trace ran long ago.
  std::iota(VariantOf.begin(), VariantOf.end(), 0);
  std::iota(ReferenceOf.begin(), ReferenceOf.end(), 0);
}

void RegisterPairing::setVariantOf(uint16_t InReference, uint16_t InVariant) {
  Renamed += (InVariant != InReference) - (VariantOf[InReference] != InReference);
  VariantOf[InReference] = InVariant;
}

void RegisterPairing::unpairReference(uint16_t InReference) {
  uint16_t InVariant = VariantOf[InReference];
  if (InVariant != Nothing)
    ReferenceOf[InVariant] = Nothing;
  setVariantOf(InReference, Nothing);
}

void RegisterPairing::unpairVariant(uint16_t InVariant) {
  uint16_t InReference = ReferenceOf[InVariant];
  if (InReference != Nothing)
    setVariantOf(InReference, Nothing);
  ReferenceOf[InVariant] = Nothing;
}

void RegisterPairing::pair(uint16_t InReference, uint16_t InVariant) {
  if (VariantOf[InReference] == InVariant)
    return;
  unpairReference(InReference);
  unpairVariant(InVariant);
  setVariantOf(InReference, InVariant);
  ReferenceOf[InVariant] = InReference;
}

bool RegisterPairing::read(uint16_t InReference, uint16_t InVariant) {
  if (VariantOf[InReference] == InVariant)
    return true;
  if (InReference == ProgramCounter || InVariant == ProgramCounter)
    return false;
  if (ReferenceClock - ReferenceWritten[InReference] < Horizon ||
      VariantClock - VariantWritten[InVariant] < Horizon)
    return false;
  // Both values are old: they delay nothing, and from now on they are the same.
  pair(InReference, InVariant);
  return true;
}

bool RegisterPairing::followInstructions(const RegisterAccesses &Variant, uint32_t I,
                                         const RegisterAccesses &Reference, uint32_t J) {
  bool Alike = Variant.Begin[I + 1] - Variant.Begin[I] ==
               Reference.Begin[J + 1] - Reference.Begin[J];
  uint32_t Count = std::min(Variant.Begin[I + 1] - Variant.Begin[I],
                            Reference.Begin[J + 1] - Reference.Begin[J]);
  // data() + offset, not &v[offset]: a code without register accesses has an empty
  // vector, and indexing it is undefined even when nothing is read.
  const RegisterAccess *V = Variant.Accesses.data() + Variant.Begin[I];
  const RegisterAccess *R = Reference.Accesses.data() + Reference.Begin[J];
  for (uint32_t A = 0; A < Count; ++A) {
    if (R[A].SubIndex != V[A].SubIndex || R[A].How != V[A].How)
      Alike = false;
    else if (R[A].How != RegisterAccess::Write && !read(R[A].Family, V[A].Family))
      Alike = false;
  }
  for (uint32_t A = 0; A < Count; ++A) {
    if (R[A].How == RegisterAccess::Read)
      continue;
    pair(R[A].Family, V[A].Family);
    ReferenceWritten[R[A].Family] = ReferenceClock;
    VariantWritten[V[A].Family] = VariantClock;
  }
  ++ReferenceClock;
  ++VariantClock;
  return Alike;
}

void RegisterPairing::followVariantOnly(const RegisterAccesses &Variant, uint32_t I) {
  for (uint32_t A = Variant.Begin[I]; A < Variant.Begin[I + 1]; ++A)
    if (Variant.Accesses[A].How != RegisterAccess::Read) {
      unpairVariant(Variant.Accesses[A].Family);
      VariantWritten[Variant.Accesses[A].Family] = VariantClock;
    }
  ++VariantClock;
}

void RegisterPairing::followReferenceOnly(const RegisterAccesses &Reference, uint32_t J) {
  for (uint32_t A = Reference.Begin[J]; A < Reference.Begin[J + 1]; ++A)
    if (Reference.Accesses[A].How != RegisterAccess::Read) {
      unpairReference(Reference.Accesses[A].Family);
      ReferenceWritten[Reference.Accesses[A].Family] = ReferenceClock;
    }
  ++ReferenceClock;
}

bool RegisterPairing::followAlike(const RegisterAccesses &Variant,
                                  const RegisterAccesses &Reference) {
  bool Alike = true;
  for (uint32_t I = 0; I < Reference.instructions(); ++I)
    Alike &= followInstructions(Variant, I, Reference, I);
  return Alike;
}

void RegisterPairing::noteWrites(const RegisterAccesses &Code,
                                 std::vector<uint64_t> &LastWrite, uint64_t Clock) {
  for (auto [Family, Instruction] : Code.LastWrites)
    LastWrite[Family] = Clock + Instruction;
}

bool RegisterPairing::followSame(const RegisterAccesses &Code) {
  if (!isIdentity())
    return followAlike(Code, Code);
  // Every register holds the same value on both sides: reads agree, writes keep it so.
  noteWrites(Code, ReferenceWritten, ReferenceClock);
  noteWrites(Code, VariantWritten, VariantClock);
  ReferenceClock += Code.instructions();
  VariantClock += Code.instructions();
  return true;
}

void RegisterPairing::followDifferent(
    const RegisterAccesses &Variant, const RegisterAccesses &Reference,
    llvm::ArrayRef<std::pair<uint32_t, uint32_t>> Matches) {
  uint32_t I = 0, J = 0;
  auto followUntil = [&](uint32_t EndI, uint32_t EndJ) {
    for (; I < EndI; ++I)
      followVariantOnly(Variant, I);
    for (; J < EndJ; ++J)
      followReferenceOnly(Reference, J);
  };
  for (auto [MatchI, MatchJ] : Matches) {
    followUntil(MatchI, MatchJ);
    followInstructions(Variant, I++, Reference, J++);
  }
  followUntil(Variant.instructions(), Reference.instructions());
}

} // namespace mlgo
