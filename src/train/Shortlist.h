/// \file
/// The shortlist of a training run (train --shortlist K): the K best distinct policies
/// it evaluated, by predicted speedup, perturbations included. The replay engine ranks
/// large changes well but cannot rank the few tenths of a percent a search finds
/// (docs/results/train-repredict.md: Spearman about 0), so the best
/// prediction alone is a poor pick; a native measurement chooses among the shortlist.
/// Policies with the same predicted speedup count once: most perturbations that tie
/// compile to the same code, and the first one evaluated is kept, as for best.json.
#pragma once

#include "support/Json.h"

#include "llvm/Support/Error.h"
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace mlgo {

struct ShortlistEntry {
  double Speedup = 0;
  uint64_t Step = 0; ///< the step that evaluated it
  std::vector<float> Parameters;
};

class Shortlist {
public:
  explicit Shortlist(unsigned Capacity = 0) : Capacity(Capacity) {}

  /// Offers a policy evaluated at \p Step with \p Speedup; \p Parameters is called only
  /// if it is kept. Returns whether it was.
  bool offer(double Speedup, uint64_t Step,
             const std::function<std::vector<float>()> &Parameters);

  /// Best first.
  const std::vector<ShortlistEntry> &entries() const { return Entries; }

  Json toJSON() const;
  /// Reads what toJSON wrote for a policy of \p Size parameters, kept to \p Capacity
  /// entries; \p Path names the file in errors.
  static llvm::Expected<Shortlist> fromJSON(const Json &Value, unsigned Capacity,
                                            size_t Size, llvm::StringRef Path);

private:
  unsigned Capacity;
  std::vector<ShortlistEntry> Entries;
};

} // namespace mlgo
