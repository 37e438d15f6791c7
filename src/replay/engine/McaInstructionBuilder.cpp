/// \file
/// mca::InstrBuilder for one CPU, quiet on stderr.
#include "replay/engine/McaInstructionBuilder.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/MCA/CustomBehaviour.h"
#include "llvm/MCA/InstrBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include <fcntl.h>
#include <mutex>
#include <unistd.h>

namespace mlgo {

namespace {

/// The latency MCA gives a call. llvm-mca assumes 100 cycles because it cannot see the
/// callee; a trace holds the callee's instructions, so a call costs like a jump.
constexpr unsigned CallLatency = 1;

/// Runs \p F with stderr sent to /dev/null. InstrBuilder warns on stderr the first time
/// it sees a call or a return ("call instructions are not correctly modeled"), which
/// replay models on purpose; there is no option to turn that off.
template <typename Fn> auto withoutStderr(Fn F) {
  static std::mutex Lock;
  std::lock_guard<std::mutex> Guard(Lock);
  llvm::errs().flush();
  int Saved = ::dup(STDERR_FILENO);
  int Null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (Saved >= 0 && Null >= 0)
    ::dup2(Null, STDERR_FILENO);
  auto Result = F();
  llvm::errs().flush();
  if (Saved >= 0 && Null >= 0)
    ::dup2(Saved, STDERR_FILENO);
  if (Null >= 0)
    ::close(Null);
  if (Saved >= 0)
    ::close(Saved);
  return Result;
}

} // namespace

struct McaInstructionBuilder::Impl {
  explicit Impl(const McaTarget &T) : InstrInfo(T.instrInfo()) {
    Instruments.reset(T.target().createInstrumentManager(T.subtarget(), T.instrInfo()));
    if (!Instruments)
      Instruments = std::make_unique<llvm::mca::InstrumentManager>(T.subtarget(),
                                                                   T.instrInfo());
    Builder = std::make_unique<llvm::mca::InstrBuilder>(
        T.subtarget(), T.instrInfo(), T.registerInfo(), T.instrAnalysis(), *Instruments,
        CallLatency);
  }

  /// InstrBuilder::createInstruction, without its warning on stderr.
  llvm::Expected<std::unique_ptr<llvm::mca::Instruction>>
  create(const llvm::MCInst &Inst, const llvm::SmallVector<llvm::mca::Instrument *> &None) {
    auto Create = [&] { return Builder->createInstruction(Inst, None); };
    const llvm::MCInstrDesc &Desc = InstrInfo.get(Inst.getOpcode());
    bool Warns = (Desc.isCall() && !SeenCall) || (Desc.isReturn() && !SeenReturn);
    if (!Warns)
      return Create();
    SeenCall |= Desc.isCall();
    SeenReturn |= Desc.isReturn();
    return withoutStderr(Create);
  }

  const llvm::MCInstrInfo &InstrInfo;
  std::unique_ptr<llvm::mca::InstrumentManager> Instruments;
  std::unique_ptr<llvm::mca::InstrBuilder> Builder;
  /// InstrBuilder warns once per builder; see withoutStderr.
  bool SeenCall = false, SeenReturn = false;
};

McaInstructionBuilder::McaInstructionBuilder(const McaTarget &Target)
    : I(std::make_unique<Impl>(Target)) {}

McaInstructionBuilder::~McaInstructionBuilder() = default;

llvm::Expected<std::unique_ptr<llvm::mca::Instruction>>
McaInstructionBuilder::create(const llvm::MCInst &Inst) {
  const llvm::SmallVector<llvm::mca::Instrument *> NoInstruments;
  return I->create(Inst, NoInstruments);
}

void McaInstructionBuilder::recycleWith(Recycler Recycle) {
  I->Builder->setInstRecycleCallback(std::move(Recycle));
}

} // namespace mlgo
