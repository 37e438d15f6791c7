/// \file
/// Fast replay's plan. A variant is replayed against a reference whose exact cycles,
/// event by event, are known: where both run the same code the pipeline does the same,
/// so only spans around code that differs are simulated with the variant's code, and
/// the difference from the reference's cycles of the same events is added to its
/// total. A span starts with a warm-up of the WarmUp instructions before its first
/// difference (simulated, not counted) and ends once Settle instructions of same code
/// have followed its last one (by then the pipeline has converged to the
/// reference's); a difference before that extends the span. Code that differs only by
/// register names is no difference where the registers hold the reference's values
/// (RegisterPairing.h).
#pragma once

#include "replay/engine/McaTarget.h"
#include "replay/fast/RegisterAccesses.h"
#include "replay/fast/RegisterPairing.h"
#include "replay/fast/SameTiming.h"
#include "replay/fast/SpanSettings.h"
#include "replay/refill/Refill.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/MC/MCInst.h"
#include <deque>
#include <map>
#include <optional>
#include <vector>

namespace mlgo {

/// The code of an event on one side, copied from the refill.
struct SpanCode {
  uint32_t Function;
  std::vector<llvm::MCInst> Instructions;
  std::vector<uint64_t> Addresses;
  std::vector<uint8_t> Sizes;
  uint64_t LineBase; ///< RefilledCode::LineBase
};

/// Consecutive events of one thread, simulated from an empty pipeline on both sides.
struct Span {
  uint32_t Thread = 0;
  /// Per event, its code in the variant and in the reference (SpanPlanner::codes()).
  std::vector<std::pair<uint32_t, uint32_t>> Events;
  /// Per event, RefilledCode::Event: where the reference's cycles of it are.
  std::vector<uint64_t> Ordinals;
  /// Per event, RefilledCode::Mispredicted.
  std::vector<bool> Mispredicted;
  /// The first WarmUp events only fill the pipeline: their cycles are not counted.
  uint32_t WarmUp = 0;
  /// Events from Counted on (a sampled window's end) are not counted either: they keep
  /// the pipeline busy so that the window's last events retire as in the whole trace,
  /// not in a drained pipeline (which made every window look a few cycles faster).
  uint32_t Counted = 0;
  uint64_t Instructions = 0; ///< of the variant, warm-up included
};

class SpanPlanner : public RefillSink {
public:
  /// \p AddressesMatter: as SameTiming's (the flow engine's spans).
  SpanPlanner(const SpanSettings &Settings, const McaTarget &Target,
              bool AddressesMatter = false);

  const SpanSettings &settings() const { return Settings; }

  llvm::Error onCode(uint32_t ThreadId, const RefilledCode &Code) override;
  /// Ends the thread's open span and forgets what it followed: its next event is
  /// \p Event, far from the last one (refillShard's runs are at least a warm-up long).
  void onSkip(uint32_t ThreadId, uint64_t Event) override;
  /// Ends every thread's open span.
  void finish();
  /// The spans ended since the last call, handed over.
  std::vector<Span> takeSpans();
  /// Instructions in the spans ended and not yet taken.
  uint64_t pendingInstructions() const { return PendingInstructions; }
  const std::vector<SpanCode> &codes() const { return Codes; }
  /// With sampling: per thread, the windows its events reached.
  std::map<uint32_t, uint64_t> windows() const;

private:
  struct ThreadState {
    /// The latest events: (variant code, reference code), variant instructions; at
    /// least WarmUp instructions when the thread has run that many.
    struct Past {
      std::pair<uint32_t, uint32_t> Codes;
      uint64_t Event;
      uint32_t Instructions;
      bool Mispredicted;
    };
    std::deque<Past> History;
    uint64_t HistoryInstructions = 0;
    bool Open = false;
    /// The open span's window has ended; instructions run since.
    bool Cooling = false;
    uint64_t Cooled = 0;
    Span Current;
    /// Instructions of same code since the last difference (none yet: settled).
    uint64_t Settled = UINT32_MAX;
    std::optional<RegisterPairing> Pairing;
    uint64_t Events = 0; ///< past the last event seen
  };

  /// How a variant code compares with a reference code, computed once per pair.
  struct Comparison {
    CodeMatch Match;
    /// For different codes, SameTiming::align's matching instructions.
    std::vector<std::pair<uint32_t, uint32_t>> Alignment;
  };

  /// Follows the registers of one event of \p T: whether it times alike on both sides.
  bool follow(ThreadState &T, uint32_t InVariant, uint32_t InReference);
  const Comparison &compare(uint32_t InVariant, uint32_t InReference);

  uint32_t intern(uint32_t Function, llvm::ArrayRef<llvm::MCInst> Instructions,
                  llvm::ArrayRef<uint64_t> Addresses, llvm::ArrayRef<uint8_t> Sizes,
                  uint64_t LineBase);
  void open(uint32_t ThreadId, ThreadState &T);
  void close(ThreadState &T);

  SpanSettings Settings;
  SameTiming Same;
  RegisterAccessReader Registers;
  uint16_t ProgramCounter; ///< its family
  std::vector<SpanCode> Codes;
  std::vector<RegisterAccesses> Accesses; ///< per code
  llvm::DenseMap<std::pair<uint32_t, uint32_t>, Comparison> Comparisons;
  /// Refilled code is a slice of the refill's decoded code, which lives as long as the
  /// refill: its address, length and function name it.
  llvm::DenseMap<std::pair<const llvm::MCInst *, uint64_t>, uint32_t> CodeIds;
  std::map<uint32_t, ThreadState> Threads;
  std::vector<Span> Done;
  uint64_t PendingInstructions = 0;
};

} // namespace mlgo
