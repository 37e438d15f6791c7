/// \file
/// Keeping and reading a run's shortlist.
#include "Shortlist.h"
#include "support/Error.h"

#include <algorithm>

namespace mlgo {

bool Shortlist::offer(double Speedup, uint64_t Step,
                      const std::function<std::vector<float>()> &Parameters) {
  if (Capacity == 0)
    return false;
  for (const ShortlistEntry &E : Entries)
    if (E.Speedup == Speedup)
      return false;
  // After every entry at least as fast: among equals the earlier evaluation stays first.
  auto At = std::find_if(Entries.begin(), Entries.end(),
                         [&](const ShortlistEntry &E) { return E.Speedup < Speedup; });
  if (At == Entries.end() && Entries.size() == Capacity)
    return false;
  Entries.insert(At, {Speedup, Step, Parameters()});
  if (Entries.size() > Capacity)
    Entries.pop_back();
  return true;
}

Json Shortlist::toJSON() const {
  Json List = Json::array();
  for (const ShortlistEntry &E : Entries)
    List.push_back({{"speedup", E.Speedup}, {"step", E.Step}, {"parameters", E.Parameters}});
  return List;
}

llvm::Expected<Shortlist> Shortlist::fromJSON(const Json &Value, unsigned Capacity,
                                              size_t Size, llvm::StringRef Path) {
  if (!Value.is_array())
    return inputError(Path, "its shortlist is not a list");
  Shortlist S(Capacity);
  for (const Json &Item : Value) {
    auto Speedup = getJsonField<double>(Item, "speedup", Path);
    if (!Speedup)
      return Speedup.takeError();
    auto Step = getJsonField<uint64_t>(Item, "step", Path);
    if (!Step)
      return Step.takeError();
    auto Parameters = getJsonField<std::vector<float>>(Item, "parameters", Path);
    if (!Parameters)
      return Parameters.takeError();
    if (Parameters->size() != Size)
      return inputError(Path, "a shortlisted policy holds {} parameters; the policy has {}",
                        Parameters->size(), Size);
    if (!S.Entries.empty() && *Speedup >= S.Entries.back().Speedup)
      return inputError(Path, "its shortlist is not in order of decreasing speedup");
    S.Entries.push_back({*Speedup, *Step, std::move(*Parameters)});
  }
  if (S.Entries.size() > Capacity)
    S.Entries.resize(Capacity);
  return S;
}

} // namespace mlgo
