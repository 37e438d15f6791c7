/// \file
/// A streaming MCA pipeline: batches, pauses, instruction recycling and per-function
/// cycle attribution.
#include "replay/mca/McaSimulator.h"
#include "support/Error.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/MCA/Context.h"
#include "llvm/MCA/CustomBehaviour.h"
#include "llvm/MCA/HWEventListener.h"
#include "llvm/MCA/IncrementalSourceMgr.h"
#include "llvm/MCA/InstrBuilder.h"
#include "llvm/MCA/Pipeline.h"
#include "llvm/MCA/Stages/Stage.h"
#include <deque>
#include <mutex>

namespace mlgo {

namespace {

/// Instructions queued before the pipeline runs: large enough to amortize a pause,
/// small enough to keep memory flat.
constexpr uint32_t BatchSize = 4096;

/// How many new mca::Instructions may accumulate before the source is cleared. MCA
/// recycles only instructions of fixed scheduling classes; the rest (x86 has many
/// variant classes, such as zero idioms) are new each time and the source keeps them
/// all, so it is cleared whenever the pipeline has fetched everything queued.
constexpr uint32_t MaxCreated = 1 << 16;

/// An IncrementalSourceMgr whose instruction numbers go on across clear(): MCA's
/// scheduler prefers older instructions by that number, so it must never restart.
class ContinuousSourceMgr : public llvm::mca::IncrementalSourceMgr {
public:
  llvm::mca::SourceRef peekNext() const override {
    return {Next, IncrementalSourceMgr::peekNext().second};
  }
  void updateNext() override {
    ++Next;
    IncrementalSourceMgr::updateNext();
  }

private:
  unsigned Next = 0;
};

} // namespace

/// The stack engine: x86 cores track the stack pointer's changes by push, pop, call and
/// ret in the front end, so these do not wait for one another's stack pointer (MCA,
/// which models no stack engine, chains them: a prologue of six pushes then costs six
/// cycles of latency, and code that saves registers on the stack looks slow). Not the
/// default: fast replay's spans then need a longer warm-up and settling (4096) to stay
/// within 0.05 points of --exact.
static void applyStackEngine(llvm::mca::Instruction &IS, llvm::MCRegister StackPointer) {
  if (!StackPointer)
    return;
  for (llvm::mca::ReadState &Read : IS.getUses())
    if (Read.isImplicitRead() && Read.getRegisterID() == StackPointer)
      Read.setIndependentFromDef();
}

/// Forwards the pipeline's retirements and cycle ends to the simulator.
class McaSimulator::RetireListener : public llvm::mca::HWEventListener {
public:
  explicit RetireListener(McaSimulator &Sim) : Sim(Sim) {}
  void onCycleEnd() override { Sim.onCycleEnd(); }
  void onEvent(const llvm::mca::HWInstructionEvent &E) override {
    if (E.Type == llvm::mca::HWInstructionEvent::Retired)
      Sim.onRetire();
  }

private:
  McaSimulator &Sim;
};

struct McaSimulator::Impl {
  Impl(const McaTarget &T, McaInstructionBuilder &Instructions)
      : Instructions(Instructions), Context(T.registerInfo(), T.subtarget()) {
    Behaviour.reset(T.target().createCustomBehaviour(T.subtarget(), Source, T.instrInfo()));
    if (!Behaviour)
      Behaviour = std::make_unique<llvm::mca::CustomBehaviour>(T.subtarget(), Source,
                                                               T.instrInfo());
    // llvm-mca's defaults: sizes from the scheduling model, loads and stores not
    // aliasing (a trace has no addresses).
    llvm::mca::PipelineOptions Options(0, 0, 0, 0, 0, 0, /*NoAlias=*/true);
    Pipeline = Context.createDefaultPipeline(Options, Source, *Behaviour);

    Source.setOnInstFreedCallback(
        [this](llvm::mca::Instruction *I) { Free[&I->getDesc()].push_back(I); });
    Instructions.recycleWith(
        [this](const llvm::mca::InstrDesc &D) -> llvm::mca::Instruction * {
          auto It = Free.find(&D);
          if (It == Free.end() || It->second.empty())
            return nullptr;
          return It->second.pop_back_val();
        });
  }
  ~Impl() {
    // The pool dies with this simulator; the builder may serve another.
    Instructions.recycleWith(
        [](const llvm::mca::InstrDesc &) -> llvm::mca::Instruction * { return nullptr; });
  }

  McaInstructionBuilder &Instructions;
  ContinuousSourceMgr Source;
  std::unique_ptr<llvm::mca::CustomBehaviour> Behaviour;
  llvm::mca::Context Context;
  std::unique_ptr<llvm::mca::Pipeline> Pipeline;
  std::unique_ptr<RetireListener> Listener;
  /// Instructions the pipeline is done with, by descriptor, for reuse.
  llvm::DenseMap<const llvm::mca::InstrDesc *, llvm::SmallVector<llvm::mca::Instruction *, 8>>
      Free;
  /// Queued, not yet retired instructions by their code: oldest first (instructions
  /// retire in order).
  struct Queued {
    uint32_t Function;
    uint64_t Event;
    uint32_t Count;
  };
  std::deque<Queued> Unretired;
};

McaSimulator::McaSimulator(const McaTarget &Target, McaInstructionBuilder &Builder,
                           uint32_t NumFunctions)
    : CoreSimulator(NumFunctions), I(std::make_unique<Impl>(Target, Builder)),
      StackPointer(Target.stackPointer()) {
  I->Listener = std::make_unique<RetireListener>(*this);
  I->Pipeline->addEventListener(I->Listener.get());
}

McaSimulator::~McaSimulator() {
  I.reset(); // lets go of the builder's recycling pool first
  if (Lender)
    Lender->giveBack(std::move(Borrowed));
}

std::unique_ptr<CoreSimulator> McaEngine::startCore(uint32_t NumFunctions) {
  std::unique_ptr<McaInstructionBuilder> Builder;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    if (!Idle.empty()) {
      Builder = std::move(Idle.back());
      Idle.pop_back();
    }
  }
  if (!Builder)
    Builder = std::make_unique<McaInstructionBuilder>(target());
  auto Core = std::make_unique<McaSimulator>(target(), *Builder, NumFunctions);
  Core->Lender = this;
  Core->Borrowed = std::move(Builder);
  return Core;
}

void McaEngine::giveBack(std::unique_ptr<McaInstructionBuilder> Builder) {
  std::lock_guard<std::mutex> Guard(Lock);
  Idle.push_back(std::move(Builder));
}

void McaSimulator::onRetire() {
  auto &Oldest = I->Unretired.front();
  // Retirement happens within the current cycle, so Elapsed + 1 have passed.
  retired(Oldest.Function, Oldest.Event, Elapsed + 1);
  if (--Oldest.Count == 0)
    I->Unretired.pop_front();
}

llvm::Error McaSimulator::add(const RefilledCode &Code) {
  uint32_t Added = 0;
  McaInstructionBuilder &B = I->Instructions;
  for (const llvm::MCInst &Inst : Code.Instructions) {
    auto New = B.create(Inst);
    if (New) {
      ++Created;
      applyStackEngine(**New, StackPointer);
      I->Source.addInst(std::move(*New));
    } else {
      llvm::Error Rest = llvm::handleErrors(
          New.takeError(), [&](const llvm::mca::RecycledInstErr &R) {
            applyStackEngine(*R.getInst(), StackPointer);
            I->Source.addRecycledInst(R.getInst());
          });
      if (Rest)
        return stageError("MCA cannot model an instruction at {:#x}: {}",
                          Code.Addresses[Added], llvm::toString(std::move(Rest)));
    }
    ++Added;
  }
  if (Added)
    I->Unretired.push_back({Code.Function, Code.Event, Added});
  Pending += Added;
  return Pending >= BatchSize ? run() : llvm::Error::success();
}

llvm::Error McaSimulator::run() {
  Pending = 0;
  auto Ran = I->Pipeline->run();
  if (Ran)
    return llvm::Error::success();
  // Running out of queued instructions pauses the pipeline; it resumes mid-cycle.
  llvm::Error Rest =
      llvm::handleErrors(Ran.takeError(), [](const llvm::mca::InstStreamPause &) {});
  if (Rest)
    return stageError("MCA: {}", llvm::toString(std::move(Rest)));
  // All queued instructions were fetched, and the pipeline works on its own copies:
  // the source's instructions, and with them the recycling pool, can go.
  if (Created > MaxCreated) {
    I->Source.clear();
    I->Free.clear();
    Created = 0;
  }
  return llvm::Error::success();
}

llvm::Error McaSimulator::finish() {
  I->Source.endOfStream();
  if (llvm::Error E = run())
    return E;
  ended(Elapsed);
  return llvm::Error::success();
}

} // namespace mlgo
