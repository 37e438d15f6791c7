/// \file
/// Exact replay in chunks: workers that each read the trace and simulate the chunks they
/// claim, their cores' counted costs added up under a lock.
#include "replay/fast/ChunkedReplay.h"
#include "replay/refill/Refill.h"
#include "support/Error.h"
#include "support/ParallelWork.h"

#include <atomic>
#include <mutex>
#include <optional>
#include <set>
#include <unordered_map>

namespace mlgo {

namespace {

/// What the chunks' cores counted, added up. Sums of integers (and event cycles of
/// disjoint events): the same whichever worker adds which chunk first.
class ChunkTotals {
public:
  explicit ChunkTotals(uint32_t NumFunctions) : NumFunctions(NumFunctions) {
    Costs.FunctionCycles.assign(NumFunctions, 0);
    Costs.FunctionInstructions.assign(NumFunctions, 0);
  }

  /// Adds what \p Core of \p Thread counted: all but its warm-up's "function",
  /// NumFunctions; and the counted events' cycles \p Events, from event \p FirstEvent.
  void add(uint32_t Thread, const CoreSimulator &Core, llvm::ArrayRef<uint32_t> Events,
           uint64_t FirstEvent) {
    const std::vector<uint64_t> &Cycles = Core.cyclesByFunction();
    const std::vector<uint64_t> &Instructions = Core.instructionsByFunction();
    std::lock_guard<std::mutex> Guard(Lock);
    Costs.Cycles += Core.cycles() - Cycles[NumFunctions];
    Costs.Instructions += Core.instructions() - Instructions[NumFunctions];
    Costs.Simulated += Core.instructions();
    for (uint32_t F = 0; F < NumFunctions; ++F) {
      Costs.FunctionCycles[F] += Cycles[F];
      Costs.FunctionInstructions[F] += Instructions[F];
    }
    Threads.insert(Thread);
    if (Events.empty())
      return;
    std::vector<uint32_t> &All = Costs.EventCycles[Thread];
    if (All.size() < FirstEvent + Events.size())
      All.resize(FirstEvent + Events.size());
    for (size_t I = 0; I < Events.size(); ++I)
      All[FirstEvent + I] += Events[I];
  }

  PredictedCosts take() {
    Costs.Threads = Threads.size();
    return std::move(Costs);
  }

private:
  uint32_t NumFunctions;
  std::mutex Lock;
  PredictedCosts Costs;
  std::set<uint32_t> Threads;
};

/// What the workers share.
struct ChunkRun {
  Engine &Cores;
  const ChunkSettings &Settings;
  uint64_t Count, TraceInstructions;
  uint32_t NumFunctions;
  bool RecordEvents;
  Progress &Bar;
  ChunkTotals Totals;
  std::atomic<uint64_t> Next{0}; ///< the next chunk to claim
  std::atomic<bool> Failed{false};
};

/// One traced thread's refilled events just before where a worker reads: those within
/// WarmUp trace instructions, from which the next chunk's core is warmed up. A ring of
/// what RefilledCode refers to, as every event handed over passes through it.
class WarmUpWindow {
public:
  void push(const RefilledCode &Code, uint64_t WarmUp) {
    // An event that far behind is behind every chunk still to come's warm-up.
    while (Size && Ring[Head].Position + WarmUp <= Code.Position) {
      Head = (Head + 1) & (Ring.size() - 1);
      --Size;
    }
    if (Size == Ring.size())
      grow();
    Ring[(Head + Size++) & (Ring.size() - 1)] = {
        Code.Instructions.data(), Code.Addresses.data(), Code.Event, Code.Position,
        Code.Function, uint32_t(Code.Instructions.size()), Code.Segment, Code.Mispredicted};
  }
  /// The first event a chunk from trace position \p Start warms up on: the first that
  /// starts within \p WarmUp instructions before it (size() if none).
  size_t firstFor(uint64_t Start, uint64_t WarmUp) const {
    size_t I = 0;
    while (I < Size && entry(I).Position + WarmUp < Start)
      ++I;
    return I;
  }
  size_t size() const { return Size; }
  /// The \p I-th event, oldest first, its code's function as \p Function.
  RefilledCode event(size_t I, uint32_t Function) const {
    const Entry &E = entry(I);
    return {Function, E.Event, {E.Instructions, E.Count}, {E.Addresses, E.Count}, {}, {},
            E.Position, E.Segment, E.Mispredicted};
  }

private:
  struct Entry {
    const llvm::MCInst *Instructions;
    const uint64_t *Addresses;
    uint64_t Event, Position;
    uint32_t Function, Count, Segment;
    bool Mispredicted;
  };
  const Entry &entry(size_t I) const { return Ring[(Head + I) & (Ring.size() - 1)]; }
  void grow() {
    std::vector<Entry> Larger(std::max<size_t>(16, 2 * Ring.size()));
    for (size_t I = 0; I < Size; ++I)
      Larger[I] = entry(I);
    Ring = std::move(Larger);
    Head = 0;
  }
  std::vector<Entry> Ring; ///< a power of two long
  size_t Head = 0, Size = 0;
};

/// A worker: reads the trace (a RefillSink), claims chunks in order and simulates
/// them; of the chunks others claimed, it is handed over only the events that warm up
/// its next chunk.
/// The refill's decoded code outlives the windows' references to it.
class ChunkWorker : public RefillSink {
public:
  explicit ChunkWorker(ChunkRun &Run) : Run(Run) {}

  /// Claims the next chunk; false when none is left.
  bool claim() {
    uint64_t C = Run.Next.fetch_add(1);
    if (C >= Run.Count)
      return false;
    Start = ChunkSettings::start(C, Run.Count, Run.TraceInstructions);
    End = C + 1 == Run.Count ? ~uint64_t(0)
                             : ChunkSettings::start(C + 1, Run.Count, Run.TraceInstructions);
    // Only the chunk and its warm-up are looked at: the events before, most of them
    // other workers' chunks, need not be handed over.
    HandOverFrom = Start - std::min(Start, Run.Settings.WarmUp);
    return true;
  }

  llvm::Error onCode(uint32_t ThreadId, const RefilledCode &Code) override {
    if (Run.Failed.load(std::memory_order_relaxed))
      return stop();
    while (Code.Position >= End) {
      if (llvm::Error E = endChunk())
        return E;
      if (!claim())
        return stop();
    }
    if (ThreadId != LastThread || !Last) {
      Last = &Threads[ThreadId];
      LastThread = ThreadId;
    }
    if (Code.Position >= Start)
      if (llvm::Error E = simulate(*Last, Code))
        return E;
    Last->Window.push(Code, Run.Settings.WarmUp);
    return llvm::Error::success();
  }

  /// Ends the chunk being simulated: its cores' counted costs go to the totals.
  llvm::Error endChunk() {
    for (auto &[Thread, T] : Threads) {
      ChunkCore &C = T.Core;
      if (!C.Sim)
        continue;
      if (llvm::Error E = C.Sim->finish())
        return E;
      llvm::ArrayRef<uint32_t> Counted(C.EventCycles);
      Run.Totals.add(Thread, *C.Sim,
                     Counted.drop_front(std::min<uint64_t>(Counted.size(),
                                                           C.FirstCounted - C.FirstRecorded)),
                     C.FirstCounted);
      C = ChunkCore();
    }
    Run.Bar.advance(std::min(End, Run.TraceInstructions) - Start);
    return llvm::Error::success();
  }

  /// Whether the refill ended because this worker stopped it.
  bool stopped() const { return Stopped; }

private:
  /// One traced thread's core in the chunk being simulated.
  struct ChunkCore {
    std::unique_ptr<CoreSimulator> Sim;
    uint64_t FirstCounted = 0, FirstRecorded = 0; ///< events
    std::vector<uint32_t> EventCycles;            ///< from FirstRecorded
  };

  llvm::Error stop() {
    Stopped = true;
    return stageError("stopped"); // consumed by the worker, never shown
  }

  /// One traced thread: its window, and its core in the chunk being simulated.
  struct PerThread {
    WarmUpWindow Window;
    ChunkCore Core;
  };

  /// Hands \p Code to the core of \p T, made and warmed up first if need be.
  llvm::Error simulate(PerThread &T, const RefilledCode &Code) {
    ChunkCore &C = T.Core;
    if (!C.Sim) {
      // The warm-up runs as an extra "function", NumFunctions, which is not counted.
      C.Sim = Run.Cores.startCore(Run.NumFunctions + 1);
      size_t First = T.Window.firstFor(Start, Run.Settings.WarmUp);
      C.FirstCounted = Code.Event;
      C.FirstRecorded = First < T.Window.size() ? T.Window.event(First, 0).Event : Code.Event;
      if (Run.RecordEvents)
        C.Sim->recordEventCycles(C.EventCycles, C.FirstRecorded);
      for (size_t I = First; I < T.Window.size(); ++I)
        if (llvm::Error E = C.Sim->add(T.Window.event(I, Run.NumFunctions)))
          return E;
    }
    return C.Sim->add(Code);
  }

  ChunkRun &Run;
  uint64_t Start = 0, End = 0; ///< of the chunk claimed, in trace instructions
  std::unordered_map<uint32_t, PerThread> Threads; ///< by thread id (stable addresses)
  uint32_t LastThread = 0;
  PerThread *Last = nullptr; ///< Threads[LastThread]
  bool Stopped = false;
};

} // namespace

llvm::Expected<Replayed> replayInChunks(Engine &Cores, const TraceProfile &Profile,
                                        const VariantCode &Code,
                                        llvm::ArrayRef<uint32_t> UnmappedFunctions,
                                        uint32_t NumFunctions, const ChunkSettings &Settings,
                                        unsigned Jobs, bool RecordEvents, Progress &Bar) {
  ChunkRun Run{Cores,        Settings, Settings.count(Profile.Instructions),
               Profile.Instructions, NumFunctions, RecordEvents, Bar, ChunkTotals(NumFunctions)};
  size_t Workers = std::min<uint64_t>(std::max(1u, Jobs), Run.Count);
  // Every worker that reads to the trace's end has the same counts: the refill's.
  std::vector<std::optional<RefillCounts>> Counts(Workers);
  llvm::Error E = runInParallel(Workers, Workers, [&](size_t I) -> llvm::Error {
    ChunkWorker Worker(Run);
    if (!Worker.claim())
      return llvm::Error::success();
    auto Reader = SegmentTraceReader::open(Profile.Path);
    if (!Reader) {
      Run.Failed = true;
      return Reader.takeError();
    }
    auto Read = refillTrace(**Reader, Code, Worker, UnmappedFunctions);
    if (!Read) {
      if (Worker.stopped()) {
        llvm::consumeError(Read.takeError());
        return llvm::Error::success();
      }
      Run.Failed = true;
      return Read.takeError();
    }
    if (llvm::Error Err = Worker.endChunk()) {
      Run.Failed = true;
      return Err;
    }
    Counts[I] = *Read;
    return llvm::Error::success();
  });
  if (E)
    return E;
  for (const std::optional<RefillCounts> &Read : Counts)
    if (Read)
      return Replayed{*Read, Run.Totals.take()};
  return stageError("no worker read the trace {} to its end", Profile.Path);
}

} // namespace mlgo
