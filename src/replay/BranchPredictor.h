/// \file
/// Which control transfers of a trace a core's branch predictor gets wrong. The trace
/// says where each one went (the segment that ran next), the same in every variant, so
/// the mispredictions are a property of the trace: refillTrace (Refill.h) runs one
/// predictor per thread over every event, in every replay mode, and marks the events
/// that follow a misprediction. What an allocation changes is how late the branch
/// resolves (FlowSimulator.h).
///
/// The predictor: per site (the segment a transfer ends) the segment that followed
/// last, kept through one miss (the 2-bit counter of a two-way branch); and a table of
/// the same indexed by the site and the outcomes of the 12 transfers before (gshare,
/// tagged with the site), which learns loops of a few iterations and branches that
/// follow others, and is used once it has seen its site with that history. Sites and
/// targets are trace segments: no addresses are needed, and a variant whose layout
/// inverts a branch's condition mispredicts it just the same. Returns are predicted
/// (the return stack).
#pragma once

#include <cstdint>
#include <vector>

namespace mlgo {

class BranchPredictor {
public:
  BranchPredictor();

  /// Whether the transfer that ended segment \p Site was predicted to continue in
  /// segment \p Next; learns that it did.
  bool predicts(uint32_t Site, uint32_t Next);

  /// Outcomes remembered (one bit each: whether a site went elsewhere than the first
  /// time), and the history table's size: 2^HistoryBits.
  static constexpr unsigned HistoryBits = 12;

private:
  struct Guess {
    uint32_t Next = Unseen;
    uint32_t Site = Unseen; ///< in the history table: whose guess it is
    bool Confident = false;
    /// Whether \p Actual was guessed; learns it.
    bool update(uint32_t Actual);
  };
  static constexpr uint32_t Unseen = ~uint32_t(0);

  /// By site: what followed it the first time, and the guess without history.
  struct PerSite {
    uint32_t FirstNext = Unseen;
    Guess Base;
  };
  std::vector<PerSite> Sites;
  std::vector<Guess> ByHistory;
  uint32_t History = 0;
};

} // namespace mlgo
