/// \file
/// Exact replay of a long trace in chunks (ChunkSettings.h) on several threads. Every
/// worker reads the trace itself, from its start, and simulates the chunks it claims, in
/// the trace's order: chunk C's cores (one per traced thread) first run, uncounted, the
/// thread's events just before the chunk (ChunkSettings::WarmUp), then count the chunk's.
#pragma once

#include "replay/engine/CoreSimulator.h"
#include "replay/engine/Replayed.h"
#include "replay/fast/ChunkSettings.h"
#include "support/Progress.h"
#include "trace/TraceProfile.h"

namespace mlgo {

class VariantCode;

/// Replays the trace of \p Profile refilled with \p Code (unmapped code as
/// \p UnmappedFunctions attributes it, see refillTrace) on cores of \p Cores, cut into
/// \p Settings.count() chunks, on up to \p Jobs threads; the costs are per function of
/// \p NumFunctions. \p RecordEvents: with the cycles of every event, stitched from the
/// chunks'. The result does not depend on Jobs.
llvm::Expected<Replayed> replayInChunks(Engine &Cores, const TraceProfile &Profile,
                                        const VariantCode &Code,
                                        llvm::ArrayRef<uint32_t> UnmappedFunctions,
                                        uint32_t NumFunctions, const ChunkSettings &Settings,
                                        unsigned Jobs, bool RecordEvents, Progress &Bar);

} // namespace mlgo
