/// \file
/// Finding the spans where a variant's code differs from its reference's.
#include "replay/fast/SpanPlan.h"

namespace mlgo {

SpanPlanner::SpanPlanner(const SpanSettings &Settings, const McaTarget &Target,
                         bool AddressesMatter)
    : Settings(Settings),
      Same(Target.instrInfo(), Target.registerInfo().getProgramCounter(), AddressesMatter),
      Registers(Target.registerInfo(), Target.instrInfo(), Target.instrAnalysis()),
      ProgramCounter(Registers.family(Target.registerInfo().getProgramCounter())) {}

uint32_t SpanPlanner::intern(uint32_t Function, llvm::ArrayRef<llvm::MCInst> Instructions,
                             llvm::ArrayRef<uint64_t> Addresses,
                             llvm::ArrayRef<uint8_t> Sizes, uint64_t LineBase) {
  // Empty slices share an address: the function tells them apart.
  auto [It, New] = CodeIds.try_emplace(
      {Instructions.data(), Instructions.size() | uint64_t(Function) << 32},
      uint32_t(Codes.size()));
  if (New) {
    Codes.push_back({Function, Instructions.vec(), Addresses.vec(), Sizes.vec(), LineBase});
    Accesses.push_back(Registers.read(Instructions));
  }
  return It->second;
}

const SpanPlanner::Comparison &SpanPlanner::compare(uint32_t InVariant,
                                                   uint32_t InReference) {
  auto [It, New] = Comparisons.try_emplace({InVariant, InReference});
  if (New) {
    const auto &Variant = Codes[InVariant].Instructions;
    const auto &Reference = Codes[InReference].Instructions;
    It->second.Match = Same(Variant, Reference);
    if (It->second.Match == CodeMatch::Different)
      It->second.Alignment = Same.align(Variant, Reference);
  }
  return It->second;
}

bool SpanPlanner::follow(ThreadState &T, uint32_t InVariant, uint32_t InReference) {
  if (!T.Pairing)
    // Values written a settling ago have retired, as a span's end assumes.
    T.Pairing.emplace(Registers.numRegisters(), Settings.Settle, ProgramCounter);
  // The same slice of code on both sides (the same image).
  if (InVariant == InReference)
    return T.Pairing->followSame(Accesses[InReference]);
  const Comparison &C = compare(InVariant, InReference);
  switch (C.Match) {
  case CodeMatch::Same:
    return T.Pairing->followSame(Accesses[InReference]);
  case CodeMatch::Renamed:
    return T.Pairing->followAlike(Accesses[InVariant], Accesses[InReference]);
  case CodeMatch::Different:
    T.Pairing->followDifferent(Accesses[InVariant], Accesses[InReference], C.Alignment);
    return false;
  }
  return false;
}

void SpanPlanner::open(uint32_t ThreadId, ThreadState &T) {
  T.Current = Span();
  T.Current.Thread = ThreadId;
  for (const ThreadState::Past &P : T.History) {
    T.Current.Events.push_back(P.Codes);
    T.Current.Ordinals.push_back(P.Event);
    T.Current.Mispredicted.push_back(P.Mispredicted);
    T.Current.Instructions += P.Instructions;
  }
  T.Current.WarmUp = T.Current.Events.size();
  T.Open = true;
}

void SpanPlanner::close(ThreadState &T) {
  if (!T.Cooling)
    T.Current.Counted = T.Current.Events.size();
  T.Cooling = false;
  PendingInstructions += T.Current.Instructions;
  Done.push_back(std::move(T.Current));
  T.Open = false;
}

llvm::Error SpanPlanner::onCode(uint32_t ThreadId, const RefilledCode &Code) {
  ThreadState &T = Threads[ThreadId];
  T.Events = Code.Event + 1;
  std::pair<uint32_t, uint32_t> Pair{
      intern(Code.Function, Code.Instructions, Code.Addresses, Code.Sizes, Code.LineBase),
      intern(Code.Function, Code.ReferenceInstructions, Code.ReferenceAddresses,
             Code.ReferenceSizes, Code.ReferenceLineBase)};
  bool Differs = !follow(T, Pair.first, Pair.second);
  uint32_t Instructions = Code.Instructions.size();
  T.Settled = Differs ? 0 : T.Settled + Instructions;
  bool Sampled = Settings.inWindow(Code.Event);
  if (T.Open && !T.Cooling && !Sampled) {
    // The window ends: the variant runs on for a settling, uncounted.
    T.Cooling = true;
    T.Cooled = 0;
    T.Current.Counted = T.Current.Events.size();
  }
  if (T.Open && T.Cooling && Sampled)
    close(T); // the next window begins
  // A span opens at a difference, or where a window starts before the last one settled.
  if (Sampled && !T.Open && (Differs || T.Settled < Settings.Settle))
    open(ThreadId, T);
  if (T.Open) {
    T.Current.Events.push_back(Pair);
    T.Current.Ordinals.push_back(Code.Event);
    T.Current.Mispredicted.push_back(Code.Mispredicted);
    T.Current.Instructions += Instructions;
    T.Cooled += T.Cooling ? Instructions : 0;
    if (T.Cooling ? T.Cooled >= Settings.Settle : T.Settled >= Settings.Settle)
      close(T);
  }
  // The latest events warm up the next span (each side runs its own code in them).
  T.History.push_back({Pair, Code.Event, Instructions, Code.Mispredicted});
  T.HistoryInstructions += Instructions;
  while (!T.History.empty() &&
         T.HistoryInstructions - T.History.front().Instructions >= Settings.WarmUp) {
    T.HistoryInstructions -= T.History.front().Instructions;
    T.History.pop_front();
  }
  return llvm::Error::success();
}

void SpanPlanner::onSkip(uint32_t ThreadId, uint64_t Event) {
  ThreadState &T = Threads[ThreadId];
  if (T.Open)
    close(T);
  T = ThreadState(); // as a thread not seen yet
  T.Events = Event;
}

void SpanPlanner::finish() {
  for (auto &[Id, T] : Threads)
    if (T.Open)
      close(T);
}

std::map<uint32_t, uint64_t> SpanPlanner::windows() const {
  std::map<uint32_t, uint64_t> Windows;
  for (const auto &[Id, T] : Threads)
    if (Settings.samples() && T.Events)
      Windows[Id] = (T.Events - 1) / Settings.SampleEvery + 1;
  return Windows;
}

std::vector<Span> SpanPlanner::takeSpans() {
  PendingInstructions = 0;
  return std::move(Done);
}

} // namespace mlgo
