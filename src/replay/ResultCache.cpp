/// \file
/// The replay cache: a hash of what decides a replay names its JSON file.
#include "detail/ResultCache.h"
#include "detail/VariantReplay.h"
#include "support/ByteCursor.h"
#include "support/InputFile.h"
#include "support/Json.h"
#include "support/OutputFile.h"
#include "support/SealedFile.h"
#include "support/Warning.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"
#include <fmt/format.h>

namespace mlgo {

namespace {

constexpr const char *Format = "mlgo-ra.replay.cached";
/// Bump when what a replay computes changes (MCA settings, attribution, refill).
// 2: --stack-engine in the key; 3: the trace by its hash; 4: the engine; 5: the flow
// engine books resources by unit masks; 6: it eliminates Intel's register moves; 7:
// stores out of order, loads behind unknown store addresses; 8: branch mispredictions;
// 9: load dependences; 10: the tagged branch predictor; 11: a register xor takes one
// cycle, a rotate by an immediate one micro-op; 12: each file sealed (SealedFile.h), the
// description gives the events' threads and bytes; 13: a renamed reload's value no
// sooner than a load's latency after its dispatch; 14: fetch lines counted from the
// function's start; 15: objects' GOT loads relaxed as the linker relaxes them; 16: also
// of the globals the traced binary defines, and objects' identity covers the relaxed code;
// 17: a function's aliases name it (a destructor's D1 and D2); 18: a chunk's warm-up
// counted in trace instructions.
constexpr int Version = 18;
constexpr const char *EventsMagic = "MLGOEVC1";

std::string pathOf(llvm::StringRef Dir, llvm::StringRef Key, llvm::StringRef Suffix) {
  return (Dir + "/replay/" + Key + Suffix).str();
}

/// Event cycles, per thread: its id, its event count, the cycles (LEB128 varints).
std::string encodeEvents(const std::map<uint32_t, std::vector<uint32_t>> &Events) {
  std::string Out = EventsMagic;
  for (const auto &[Thread, Cycles] : Events) {
    // The recording grows its vectors ahead: trailing zeros say nothing.
    size_t N = Cycles.size();
    while (N && !Cycles[N - 1])
      --N;
    appendVarint(Out, Thread);
    appendVarint(Out, N);
    for (size_t I = 0; I < N; ++I)
      appendVarint(Out, Cycles[I]);
  }
  return Out;
}

bool decodeEvents(llvm::StringRef Bytes, std::map<uint32_t, std::vector<uint32_t>> &Events) {
  if (!Bytes.consume_front(EventsMagic))
    return false;
  ByteCursor C{Bytes.bytes_begin(), Bytes.bytes_end()};
  while (C.P != C.E && !C.Short) {
    std::vector<uint32_t> &Cycles = Events[C.varint()];
    uint64_t N = C.varint();
    if (N > uint64_t(C.E - C.P))
      return false;
    Cycles.resize(N);
    for (uint32_t &Cycle : Cycles)
      Cycle = C.varint();
  }
  return !C.Short;
}

/// Reads \p Field of \p J into \p Out; false if it is not there as a T.
template <typename T> bool read(const Json &J, const char *Field, T &Out) {
  std::optional<T> Value = findJsonField<T>(J, Field);
  if (Value)
    Out = std::move(*Value);
  return Value.has_value();
}

} // namespace

llvm::Expected<std::string> hashTrace(llvm::StringRef Path) {
  auto Trace = readRegularFile(Path);
  if (!Trace)
    return Trace.takeError();
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef((*Trace)->getBuffer())),
                     /*LowerCase=*/true);
}

std::string replayCacheKey(const ReplayOptions &Opts, llvm::StringRef TraceHash,
                           uint64_t TraceInstructions, const VariantCode &Code) {
  // Code that falls back to another image for some functions has no identity of its
  // own: not cached.
  if (TraceHash.empty() || !Code.mismatches().empty())
    return "";
  // Named, not temporaries in the list: those would die before the loop reads them.
  std::string VersionText = std::to_string(Version), Triple = replayTriple(Opts, Code);
  llvm::SHA256 Hash;
  for (llvm::StringRef Part :
       {llvm::StringRef(Format), llvm::StringRef(VersionText),
        TraceHash, llvm::StringRef(Code.variant().identity()),
        llvm::StringRef(Opts.CPU), llvm::StringRef(Triple),
        llvm::StringRef(unmappedPolicyName(Opts.Unmapped)),
        llvm::StringRef(Opts.StackEngine ? "stack-engine" : ""),
        llvm::StringRef(Opts.LoadDependences ? "load-dependences" : ""),
        llvm::StringRef(engineName(Opts.Engine))}) {
    Hash.update(std::to_string(Part.size()));
    Hash.update(Part);
  }
  // A core profile: its numbers. Added only then, as chunks below.
  if (!Opts.Core.empty())
    Hash.update("core profile " + Opts.Core.identity());
  // A trace replayed in chunks: how it was cut. Added only then, so that the keys of
  // whole replays stay what they were.
  uint64_t Chunks = Opts.Chunks.count(TraceInstructions);
  if (Chunks > 1)
    Hash.update(fmt::format("chunks {} warm-up {}", Chunks, Opts.Chunks.WarmUp));
  return llvm::toHex(Hash.final(), /*LowerCase=*/true);
}

std::optional<Replayed> loadCachedReplay(llvm::StringRef Dir, llvm::StringRef Key) {
  std::string JsonPath = pathOf(Dir, Key, ".json"), EventsPath = pathOf(Dir, Key, ".events");
  // A damaged entry is dropped, said, and recomputed: never trusted.
  auto Drop = [&](const std::string &Path, llvm::StringRef Why) -> std::optional<Replayed> {
    warn("{}: damaged replay cache entry, replaying again: {}", Path, Why.str());
    removeSealedFile(JsonPath);
    removeSealedFile(EventsPath);
    return std::nullopt;
  };
  SealedFile Description = readSealedFile(JsonPath);
  if (Description.Is == SealedFile::Missing)
    return std::nullopt;
  if (Description.Is == SealedFile::Damaged)
    return Drop(JsonPath, Description.Why);
  auto J = parseJson(Description.Contents->getBuffer(), JsonPath);
  if (!J)
    return Drop(JsonPath, llvm::toString(J.takeError()));
  Replayed R;
  std::string Name;
  int V = 0;
  uint64_t EventThreads = 0, EventBytes = 0;
  RefillCounts &C = R.Counts;
  PredictedCosts &P = R.Costs;
  bool Ok = read(*J, "format", Name) && Name == Format && read(*J, "version", V) &&
            V == Version && read(*J, "trace_instructions", C.TraceInstructions) &&
            read(*J, "refilled", C.Refilled) &&
            read(*J, "unmapped_replayed", C.UnmappedReplayed) &&
            read(*J, "unmapped_skipped", C.UnmappedSkipped) &&
            read(*J, "folded_iterations", C.FoldedIterations) &&
            read(*J, "partial_segments", C.PartialSegments) &&
            read(*J, "mispredicted_branches", C.Mispredicted) && read(*J, "cycles", P.Cycles) &&
            read(*J, "instructions", P.Instructions) && read(*J, "threads", P.Threads) &&
            read(*J, "function_cycles", P.FunctionCycles) &&
            read(*J, "function_instructions", P.FunctionInstructions) &&
            read(*J, "event_threads", EventThreads) && read(*J, "event_bytes", EventBytes) &&
            P.FunctionCycles.size() == P.FunctionInstructions.size();
  if (!Ok)
    return Drop(JsonPath, "fields missing or of another format");
  SealedFile Events = readSealedFile(EventsPath);
  if (Events.Is != SealedFile::Whole)
    return Drop(EventsPath, Events.Is == SealedFile::Missing ? "missing" : Events.Why);
  // The seal proves the bytes are those written; the description says which.
  llvm::StringRef Bytes = Events.Contents->getBuffer();
  if (Bytes.size() != EventBytes)
    return Drop(EventsPath, fmt::format("{} bytes of events where {} says {}", Bytes.size(),
                                        JsonPath, EventBytes));
  if (!decodeEvents(Bytes, P.EventCycles) || P.EventCycles.size() != EventThreads)
    return Drop(EventsPath, fmt::format("events of {} threads where {} says {}",
                                        P.EventCycles.size(), JsonPath, EventThreads));
  return R;
}

llvm::Error storeCachedReplay(llvm::StringRef Dir, llvm::StringRef Key, const Replayed &R) {
  const RefillCounts &C = R.Counts;
  const PredictedCosts &P = R.Costs;
  std::string Events = encodeEvents(P.EventCycles);
  Json J = {{"format", Format},
            {"version", Version},
            {"trace_instructions", C.TraceInstructions},
            {"refilled", C.Refilled},
            {"unmapped_replayed", C.UnmappedReplayed},
            {"unmapped_skipped", C.UnmappedSkipped},
            {"folded_iterations", C.FoldedIterations},
            {"partial_segments", C.PartialSegments},
            {"mispredicted_branches", C.Mispredicted},
            {"cycles", P.Cycles},
            {"instructions", P.Instructions},
            {"threads", P.Threads},
            {"function_cycles", P.FunctionCycles},
            {"function_instructions", P.FunctionInstructions},
            {"event_threads", P.EventCycles.size()},
            {"event_bytes", Events.size()}};
  auto Text = serializeJson(J, pathOf(Dir, Key, ".json"));
  if (!Text)
    return Text.takeError();
  // The events first: a description without them is no entry.
  if (llvm::Error E = writeSealedFile(pathOf(Dir, Key, ".events"), Events))
    return E;
  return writeSealedFile(pathOf(Dir, Key, ".json"), *Text);
}

} // namespace mlgo
