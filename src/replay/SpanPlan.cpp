/// \file
/// Finding the spans where a variant's code differs from its reference's.
#include "SpanPlan.h"

namespace mlgo {

uint32_t SpanPlanner::intern(uint32_t Function, llvm::ArrayRef<llvm::MCInst> Instructions,
                             llvm::ArrayRef<uint64_t> Addresses) {
  // Empty slices share an address: the function tells them apart.
  auto [It, New] = CodeIds.try_emplace(
      {Instructions.data(), Instructions.size() | uint64_t(Function) << 32},
      uint32_t(Codes.size()));
  if (New)
    Codes.push_back({Function, Instructions.vec(), Addresses.vec()});
  return It->second;
}

void SpanPlanner::open(uint32_t ThreadId, ThreadState &T) {
  T.Current = Span();
  T.Current.Thread = ThreadId;
  for (const ThreadState::Past &P : T.History) {
    T.Current.Events.push_back(P.Codes);
    T.Current.Ordinals.push_back(P.Event);
    T.Current.Instructions += P.Instructions;
  }
  T.Current.WarmUp = T.Current.Events.size();
  T.Open = true;
}

void SpanPlanner::close(ThreadState &T) {
  PendingInstructions += T.Current.Instructions;
  Done.push_back(std::move(T.Current));
  T.Open = false;
}

llvm::Error SpanPlanner::onCode(uint32_t ThreadId, const RefilledCode &Code) {
  ThreadState &T = Threads[ThreadId];
  bool Differs = !Same(Code.Instructions, Code.ReferenceInstructions);
  std::pair<uint32_t, uint32_t> Pair{
      intern(Code.Function, Code.Instructions, Code.Addresses),
      intern(Code.Function, Code.ReferenceInstructions, Code.ReferenceAddresses)};
  uint32_t Instructions = Code.Instructions.size();
  if (Differs && !T.Open)
    open(ThreadId, T);
  if (T.Open) {
    T.Current.Events.push_back(Pair);
    T.Current.Ordinals.push_back(Code.Event);
    T.Current.Instructions += Instructions;
    T.Settled = Differs ? 0 : T.Settled + Instructions;
    if (T.Settled >= Settings.Settle)
      close(T);
  }
  // The latest events warm up the next span (each side runs its own code in them).
  T.History.push_back({Pair, Code.Event, Instructions});
  T.HistoryInstructions += Instructions;
  while (!T.History.empty() &&
         T.HistoryInstructions - T.History.front().Instructions >= Settings.WarmUp) {
    T.HistoryInstructions -= T.History.front().Instructions;
    T.History.pop_front();
  }
  return llvm::Error::success();
}

void SpanPlanner::finish() {
  for (auto &[Id, T] : Threads)
    if (T.Open)
      close(T);
}

std::vector<Span> SpanPlanner::takeSpans() {
  PendingInstructions = 0;
  return std::move(Done);
}

} // namespace mlgo
