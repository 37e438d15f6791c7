/// \file
/// Replaying one matched variant: exactly, or (fast replay) against a reference whose
/// exact costs are known or cached; and the ReplayResult that reports it.
#pragma once

#include "replay/Replay.h"
#include "replay/engine/Replayed.h"
#include "support/Progress.h"
#include "trace/TraceProfile.h"

#include <optional>

namespace mlgo {

struct ShardEvents;

/// The pseudo-functions that replayed unmapped code is attributed to, numbered after
/// the trace's functions: one per module file name ("[unmapped] libc.so.6").
struct UnmappedFunctions {
  std::vector<std::string> Names;
  std::vector<uint32_t> OfModule; ///< per collector module id; empty: skip unmapped code
};
UnmappedFunctions unmappedFunctions(const ReplayOptions &Opts, const TraceProfile &Profile);

/// Every instruction simulated; \p RecordEvents: with the cycles of every event, as a
/// reference. With Opts.CacheDir and \p TraceHash (hashTrace), the result is read from
/// the cache when there (with event cycles), and kept there when computed.
llvm::Expected<Replayed> replayExactly(const ReplayOptions &Opts, const TraceProfile &Profile,
                                       llvm::StringRef TraceHash, const VariantCode &Code,
                                       Progress &Bar, bool RecordEvents = false);

/// Fast replay of \p Code against \p Reference, whose exact replay with event cycles
/// is \p ReferenceRun. With \p Shard (collected for Opts.Spans' shard), only its
/// events are read, and the counts are the reference's: those of the whole trace.
llvm::Expected<Replayed> replayAgainst(const ReplayOptions &Opts, const TraceProfile &Profile,
                                       const VariantCode &Code, const VariantCode &Reference,
                                       const Replayed &ReferenceRun, Progress &Bar,
                                       const ShardEvents *Shard = nullptr);

/// The result of replaying \p Code (ReplayResult.cpp); \p AutoShardError: that of a
/// fast replay that tried AutoShard's shard first.
ReplayResult makeResult(const ReplayOptions &Opts, const TraceProfile &Profile,
                        const VariantCode &Code, const Replayed &R, bool Exact,
                        std::optional<double> AutoShardError = std::nullopt);

/// The triple that replaying \p Code simulates.
std::string replayTriple(const ReplayOptions &Opts, const VariantCode &Code);

} // namespace mlgo
