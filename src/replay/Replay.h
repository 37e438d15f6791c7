/// \file
/// The replay stage: refill a segment trace with a variant's code and time it on a CPU
/// model (an engine: CoreSimulator.h), for predicted cycles (one variant) or a predicted speedup (two). Replays of
/// one trace share a ReplayContext (ReplayContext.h); runReplay and compareReplays make
/// one for a single answer. What callers need is here: options, results and the
/// context; the shard vocabulary is in SpanSettings.h, AutoShard.h and Sampling.h.
#pragma once

#include "replay/Explain.h"
#include "replay/ReplayContext.h"
#include "replay/WholeRun.h"
#include "replay/engine/CoreProfile.h"
#include "replay/engine/EngineKind.h"
#include "replay/fast/ChunkSettings.h"
#include "replay/fast/SpanSettings.h"
#include "replay/refill/FunctionMismatch.h"
#include "support/Json.h"

#include "llvm/Support/Error.h"
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
  /// What the core does beyond its scheduling model, for the flow engine
  /// (CoreProfile.h; resolveCoreProfile gives --core-profile's).
  CoreProfile Core;
  /// The flow engine: data loads wait for older stores' addresses as the trace's load
  /// dependences say (LoadWaits.h), not all of them; the trace must have them.
  bool LoadDependences = false;
  SpanSettings Spans;
  /// Without a shard in Spans: try AutoShard's first on a long trace (AutoShard.h).
  bool AutoShard = true;
  /// With AutoShard: keep its shard on a long trace whatever its error, the same
  /// windows for every variant (train: every reward on the same footing).
  bool KeepAutoShard = false;
  /// Exact replay of a long trace: the chunks it is cut into.
  ChunkSettings Chunks;
  /// Threads that simulate spans (fast replay) or chunks (exact); 0: one per core.
  unsigned Jobs = 0;
  /// Where fast replay keeps the exact results of references; empty: not kept.
  std::string CacheDir;
  /// ReplayContext::compare: explain the functions that changed most (Explain.h). Both
  /// replays are then exact (whatever Exact says) and attribute cycles to every
  /// instruction, which costs time that other replays do not pay.
  ExplainSettings Explain;
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
  /// The flow engine's core profile (CoreProfile::Source); empty: none.
  std::string CoreProfile;
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
  /// Branches the threads' predictors get wrong (RefillCounts::Mispredicted): what the
  /// flow engine charges MispredictPenalty for; MCA does not model them.
  uint64_t Mispredicted = 0;
  /// Replayed with the trace's load dependences (ReplayOptions::LoadDependences).
  bool LoadDependences = false;
  uint32_t Threads = 0;
  bool Exact = true;
  /// Of an exact replay: the chunks the trace was cut into (1: replayed whole), and
  /// the warm-up of each chunk's cores (ChunkSettings).
  uint64_t Chunks = 1, ChunkWarmUp = 0;
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
  /// With ReplayOptions::Explain: the functions that changed most, explained.
  std::optional<std::vector<FunctionExplanation>> Explanations;
  /// The baseline's native run (replay --native-cycles): the speedup of the whole run
  /// is then predicted too (WholeRun.h).
  std::optional<WholeRun> Run;
  /// baseline cycles / candidate cycles - 1: positive when the candidate is faster.
  double speedup() const {
    return Candidate.Cycles ? double(Baseline.Cycles) / Candidate.Cycles - 1 : 0;
  }
  /// The speedup of the whole run with Run, else speedup().
  double runSpeedup() const {
    return Run ? Run->speedup(double(Baseline.Cycles), double(Candidate.Cycles)) : speedup();
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
