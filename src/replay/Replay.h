/// \file
/// The replay stage: refill a segment trace with a variant's code and simulate it with
/// LLVM MCA, for predicted cycles (one variant) or a predicted speedup (two). Replays of
/// one trace share a ReplayContext (ReplayContext.h); runReplay and compareReplays make
/// one for a single answer.
#pragma once

#include "EngineKind.h"
#include "ReplayContext.h"
#include "VariantCode.h"
#include "support/Json.h"

#include "llvm/Support/Error.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlgo {

enum class CfgMismatchPolicy {
  Fail,       ///< a traced function the variant lacks or changed is an error
  UseBaseline ///< such functions run the baseline's code
};

enum class UnmappedPolicy {
  Skip,  ///< instructions outside mapped code are left out of the simulation
  Replay ///< replayed from their recorded bytes (needs a trace that kept them)
};

/// "skip" or "replay", as --unmapped spells it.
const char *unmappedPolicyName(UnmappedPolicy P);

/// Fast replay's spans (src/replay/SpanPlan.h): where a variant's code differs from
/// its reference's, in instructions of the variant.
struct SpanSettings {
  /// Simulated before a span's first difference, not counted: fills the pipeline.
  /// 512 and 512 (both at least twice the 224-entry ROB of skylake) kept the errors of
  /// 22 variants within 0.034 points; 256 and 256 reached 0.049; 1024 and 1024 gave
  /// 0.030 and simulated a third more (docs/fast-replay-status.md).
  uint32_t WarmUp = 512;
  /// Of the same code after a span's last difference, still counted: by then the
  /// pipeline has converged to the reference's.
  uint32_t Settle = 512;
  /// Warm-up and settling for a replay with the stack engine (ReplayOptions): the
  /// pipeline then runs further ahead, and 512 erred 0.225 points on a variant of json,
  /// 4096 0.000.
  static constexpr uint32_t StackEngineSpan = 4096;
  /// Sampling (a trace shard): when SampleEvery is not 0, differences
  /// count only in the events whose ordinal modulo SampleEvery is below SampleLength,
  /// weighted SampleEvery / SampleLength. Ordinals name the same events in every
  /// variant, so all variants are compared on the same windows.
  uint64_t SampleEvery = 0;
  uint64_t SampleLength = 0;

  bool samples() const { return SampleEvery != 0; }
  /// The weight of a counted difference.
  double sampleWeight() const { return samples() ? double(SampleEvery) / SampleLength : 1; }
};

/// The shard that fast replay tries first on a long trace (ReplayOptions::AutoShard), and
/// the standard error of the speedup under which it keeps it. Four standard errors
/// stay within issue 6's bound of 0.05 points; over 26 variants on 50 M-instruction
/// traces, the 6 shards kept erred at most 0.017 points, their replays 10-82x faster
/// than --exact (docs/fast-replay-status.md).
struct AutoShard {
  static constexpr uint64_t Length = 1024, Every = 16384;
  /// Fewer windows than this give too rough a standard error: the whole trace.
  static constexpr uint64_t MinWindows = 64;
  static constexpr double MaxErrorPoints = 0.0125;
  /// Whether a trace with these events per thread (TraceProfile::ThreadEvents) is
  /// long enough to try it.
  static bool fits(const std::map<uint32_t, uint64_t> &ThreadEvents);
  /// Makes \p Spans sample it.
  static void sampleIn(SpanSettings &Spans) {
    Spans.SampleLength = Length;
    Spans.SampleEvery = Every;
  }
  /// "1024/16384", as --sample spells it.
  static std::string name();
};

/// Reads --sample's LENGTH/EVERY (events) into \p Spans; an InputError names \p Option.
llvm::Error parseSampling(llvm::StringRef Text, llvm::StringRef Option, SpanSettings &Spans);
/// Reads --sample as replay and train take it: "auto" (leaves \p Spans and
/// \p AutoShard as they are), "none" (clears \p AutoShard) or LENGTH/EVERY.
llvm::Error parseSampleOption(llvm::StringRef Text, llvm::StringRef Option,
                              SpanSettings &Spans, bool &AutoShard);
std::string samplingName(const SpanSettings &Spans);

struct ReplayOptions {
  std::string Trace;
  std::string CPU = "skylake"; ///< the CPU the reference work modeled
  EngineKind Engine = EngineKind::Flow;
  std::string Triple;          ///< empty: the code's own
  CfgMismatchPolicy OnCfgMismatch = CfgMismatchPolicy::Fail;
  UnmappedPolicy Unmapped = UnmappedPolicy::Skip;
  bool ShowProgress = true; ///< a progress line, on a terminal only
  /// Where the binary the trace was recorded on is now; empty: where it was recorded.
  std::string RecordedBinary;
  /// Simulate every traced instruction: the reference fast replay is measured against.
  bool Exact = false;
  /// Model x86's stack engine (McaTarget::create).
  bool StackEngine = false;
  SpanSettings Spans;
  /// Without a shard in Spans: try AutoShard's first on a long trace (see AutoShard).
  bool AutoShard = true;
  /// With AutoShard: keep its shard on a long trace whatever its error, the same
  /// windows for every variant (train: every reward on the same footing).
  bool KeepAutoShard = false;
  /// Threads that simulate spans (fast replay); 0: one per core.
  unsigned Jobs = 0;
  /// Where fast replay keeps the exact results of references; empty: not kept.
  std::string CacheDir;
};

struct FunctionCost {
  std::string Function; ///< CodeFunction::key()
  uint64_t Instructions = 0;
  uint64_t Cycles = 0;
};

struct ReplayResult {
  std::string Code; ///< the binary or object directory replayed
  std::string CPU, Triple;
  EngineKind Engine = EngineKind::Flow;
  UnmappedPolicy Unmapped = UnmappedPolicy::Skip;
  uint64_t Cycles = 0;            ///< predicted, summed over threads
  uint64_t Instructions = 0;      ///< simulated
  uint64_t TraceInstructions = 0; ///< traced, in all
  /// Traced outside mapped code: replayed from the trace's bytes, or left out.
  uint64_t UnmappedReplayed = 0, UnmappedSkipped = 0;
  /// Of UnmappedReplayed, iterations of rep-prefixed instructions that MCA modeled as
  /// part of the instruction (RefillCounts::FoldedIterations): not in Instructions.
  uint64_t FoldedIterations = 0;
  uint64_t PartialSegments = 0;
  uint32_t Threads = 0;
  bool Exact = true;
  /// Fast replay's sampling as --sample spells it (LENGTH/EVERY); empty: none.
  std::string Sampling;
  /// Instructions MCA simulated (warm-ups included).
  uint64_t Simulated = 0;
  /// With Sampling: the estimated standard error of Cycles.
  double SamplingError = 0;
  /// Where fast replay tried AutoShard's shard: the standard error on it of the speedup
  /// over the reference (a fraction, as ReplayComparison::speedup()); the shard was kept
  /// if Sampling is set, else the whole trace replayed.
  std::optional<double> AutoShardError;
  /// Traced functions, most cycles first; with replayed unmapped code also one
  /// pseudo-function per module file name, "[unmapped] libc.so.6".
  std::vector<FunctionCost> Functions;
  /// Traced functions whose code came from the baseline (CfgMismatchPolicy::UseBaseline).
  std::vector<FunctionMismatch> Mismatches;

  double ipc() const { return Cycles ? double(Instructions) / Cycles : 0; }
  /// The share of traced instructions that were simulated (folded iterations included).
  double modeledShare() const {
    return TraceInstructions ? double(Instructions + FoldedIterations) / TraceInstructions
                             : 0;
  }
  Json toJSON() const;
};

/// Whether \p Binary is the binary the trace at \p Trace was recorded on (the same
/// identity: build ID, else hash); an InputError naming both if not. Replay requires
/// it of a linked --baseline, train of its --baseline.
llvm::Error checkRecordedBinary(llvm::StringRef Trace, llvm::StringRef Binary);

/// ReplayContext::predict on a context made for this one replay.
llvm::Expected<ReplayResult> runReplay(const ReplayOptions &Opts, llvm::StringRef Code);

struct FunctionDelta {
  std::string Function;
  uint64_t BaselineCycles = 0, CandidateCycles = 0;
  int64_t delta() const { return int64_t(CandidateCycles) - int64_t(BaselineCycles); }
};

struct ReplayComparison {
  ReplayResult Baseline, Candidate;
  /// baseline cycles / candidate cycles - 1: positive when the candidate is faster.
  double speedup() const {
    return Candidate.Cycles ? double(Baseline.Cycles) / Candidate.Cycles - 1 : 0;
  }
  /// The standard error of speedup() from the replays' sampling errors.
  double speedupError() const;
  /// Per traced function, the largest change in cycles first.
  std::vector<FunctionDelta> deltas() const;
  Json toJSON() const;
};

/// ReplayContext::compare on a context made for this one comparison.
llvm::Expected<ReplayComparison> compareReplays(const ReplayOptions &Opts,
                                                llvm::StringRef Baseline,
                                                llvm::StringRef Candidate);

} // namespace mlgo
