/// \file
/// Exact replay results kept on disk, so that fast replay simulates its reference once
/// per trace, code, CPU and settings: per key in DIR/replay/, KEY.json (counts, cycles
/// per function) and KEY.events (the cycles of every event).
#pragma once

#include "replay/engine/Replayed.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>

namespace mlgo {

struct ReplayOptions;
class VariantCode;

/// The hash of the trace file's bytes at \p Path, which keys its replays.
llvm::Expected<std::string> hashTrace(llvm::StringRef Path);

/// The key of replaying \p Code on the trace of \p TraceHash (and \p TraceInstructions)
/// as \p Opts says: a hash of that, the code's identity, the CPU, the triple, the
/// unmapped policy, the engine and the chunks; empty (not cached) without a trace hash or
/// for code that has no identity of its own.
std::string replayCacheKey(const ReplayOptions &Opts, llvm::StringRef TraceHash,
                           uint64_t TraceInstructions, const VariantCode &Code);

/// The result kept under \p Key in \p Dir; none if there is none. An entry that is
/// damaged (its files do not match their seals or each other) is removed with a warning,
/// to be replayed and stored again.
std::optional<Replayed> loadCachedReplay(llvm::StringRef Dir, llvm::StringRef Key);

/// Stores \p R under \p Key in \p Dir: each file sealed (SealedFile.h), the events first.

llvm::Error storeCachedReplay(llvm::StringRef Dir, llvm::StringRef Key, const Replayed &R);

} // namespace mlgo
