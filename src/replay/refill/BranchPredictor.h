/// \file
/// Which control transfers of a trace a core's branch predictor gets wrong. The trace
/// says where each one went (the segment that ran next), the same in every variant, so
/// the mispredictions are a property of the trace: refillTrace (Refill.h) runs one
/// predictor per thread over every event, in every replay mode, and marks the events
/// that follow a misprediction. What an allocation changes is how late the branch
/// resolves (FlowSimulator.h).
///
/// The predictor is tagged and geometric, as the cores' own (TAGE): per site (the
/// segment a transfer ends) the segment that followed last, kept through one miss (the
/// 2-bit counter of a two-way branch); and tables of the same indexed by the site and
/// the path of the last L transfers, L = 4, 10, 24, 60 and 150, each entry tagged with
/// its site and path. The longest path that has been seen before predicts; a miss
/// allocates an entry for a longer one. Short paths learn loops of a few iterations
/// and branches that follow others; long ones learn where an interpreter's dispatch
/// goes next, which a core's predictor does after a few runs of the same bytecode
/// (bench/ipc: a 12-transfer history mispredicted 1.2% of the interpreter example's
/// instructions and predicted it 2.7 times slower than it runs). Sites and targets are
/// trace segments: no addresses are needed, and a variant whose layout inverts a
/// branch's condition mispredicts it just the same. Returns are predicted (the return
/// stack).
#pragma once

#include "trace/SegmentTrace.h"

#include <array>
#include <cstdint>
#include <vector>

namespace mlgo {

class BranchPredictor {
public:
  BranchPredictor();

  /// Whether the transfer that ended segment \p Site was predicted to continue in
  /// segment \p Next; learns that it did.
  bool predicts(uint32_t Site, uint32_t Next);

  /// The tables' path lengths, in transfers, and each table's size: 2^TableBits.
  static constexpr std::array<unsigned, 5> PathLengths = {4, 10, 24, 60, 150};
  static constexpr unsigned TableBits = 12;

private:
  static constexpr uint32_t Unseen = ~uint32_t(0);
  struct Guess {
    uint32_t Next = Unseen;
    bool Confident = false;
    /// Whether \p Actual was guessed; learns it.
    bool update(uint32_t Actual);
  };
  struct Tagged {
    uint32_t Tag = 0; ///< 0: free
    Guess Guessed;
    bool Useful = false; ///< it was right where the shorter path was wrong
  };
  static constexpr unsigned Tables = PathLengths.size();
  static constexpr unsigned PathCapacity = 256; ///< > the longest path, a power of 2

  struct PerSite {
    Guess Plain;
    /// It went elsewhere than its plain guess at least once: only then can the tables
    /// hold entries for it, and are they looked at (most sites always go one way).
    bool Varies = false;
  };
  /// predicts() for a site that went more than one way: by the tables, the plain
  /// guess (right or not: \p PlainRight) where they hold nothing for its path.
  bool predictsByPath(uint32_t Site, uint32_t Next, bool PlainRight);

  std::vector<PerSite> BySite;
  std::vector<Tagged> ByPath; ///< the tables, one after another
  /// The path: each transfer's hash, in a ring, and per table the polynomial hash of
  /// its last PathLengths[T] entries, kept as transfers come and go.
  std::array<uint64_t, PathCapacity> Path{};
  uint64_t Transfers = 0;
  std::array<uint64_t, Tables> PathHash{};
  std::array<uint64_t, Tables> OutgoingWeight{}; ///< Base^PathLengths[T]
};

/// One thread's transfers of control along the trace: which of its events follow a
/// misprediction (RefilledCode::Mispredicted). Every reader of a trace's events that
/// marks them (refillTrace, ShardCollector) follows each thread's events with one.
class ThreadTransfers {
public:
  /// Whether the transfer into \p E, the thread's next event, was mispredicted.
  bool mispredictedInto(const SegmentEvent &E,
                        const std::vector<SegmentTraceReader::SegmentName> &Segments) {
    // Only a whole segment ends in a known transfer. A segment that does not start its
    // block continues it after a call returned: the return stack predicts that.
    bool Whole = E.What == SegmentEvent::Segment;
    bool Missed = Whole && Site != NoSite && Segments[E.Index].SegmentInBlock == 0 &&
                  !Predictor.predicts(Site, E.Index);
    Site = Whole ? E.Index : NoSite;
    return Missed;
  }

private:
  static constexpr uint32_t NoSite = ~uint32_t(0);
  BranchPredictor Predictor;
  uint32_t Site = NoSite; ///< the segment the previous event ran whole, if it did
};

} // namespace mlgo
