/// \file
/// The compile memo: a policy reproduces a recorded compile when it decides every
/// recorded observation as recorded.
#include "CompileMemo.h"

namespace mlgo {

namespace {

bool reproduces(const Policy &P, const RecordedCompile &C) {
  if (P.usesAdvisor() != C.UsedAdvisor)
    return false;
  for (size_t I = 0; I < C.Observations.size(); ++I)
    if (P.decide(C.Observations[I]) != C.Decisions[I])
      return false;
  return true;
}

} // namespace

CompileMemo::CompileMemo(size_t Modules, size_t PerModule)
    : PerModule(PerModule), Entries(Modules) {}

std::shared_ptr<const RecordedCompile> CompileMemo::find(size_t Module, const Policy &P) {
  std::vector<std::shared_ptr<const RecordedCompile>> Candidates;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Candidates = Entries[Module];
  }
  // Newest first: training moves on, and recent policies are the closest.
  for (auto It = Candidates.rbegin(); It != Candidates.rend(); ++It)
    if (reproduces(P, **It)) {
      std::lock_guard<std::mutex> Guard(Lock);
      ++Hits;
      return *It;
    }
  return nullptr;
}

void CompileMemo::add(size_t Module, std::shared_ptr<const RecordedCompile> Compile) {
  std::lock_guard<std::mutex> Guard(Lock);
  auto &List = Entries[Module];
  if (List.size() == PerModule)
    List.erase(List.begin());
  List.push_back(std::move(Compile));
}

} // namespace mlgo
