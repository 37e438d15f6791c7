// The flow engine against arithmetic: hand-built kernels whose cycles follow from the
// scheduling model's numbers by the timing rules FlowSimulator.h states. Each test
// reads the numbers it needs (latencies, micro-ops and resource cycles from
// mca::InstrBuilder's description, widths and sizes from MCSchedModel), checks that
// the kernel is in the regime its formula assumes, and asserts the exact cycles.
//
// The rules, as the formulas use them: the first instruction dispatches in cycle 0
// and issues no sooner than cycle 1; an instruction completes at its issue plus its
// latency and retires in the cycle it completes (in order); the cycles of a stream
// run through the cycle of its last retirement, hence "+ 1" at the end.
#include "Assemble.h"
#include "TestSupport.h"
#include "detail/EngineFactory.h"
#include "replay/engine/CoreProfile.h"
#include "replay/engine/CoreSimulator.h"
#include "replay/flow/FlowSimulator.h"
#include "replay/mca/McaSimulator.h"

#include "llvm/MCA/Instruction.h"
#include "llvm/MCA/Support.h"
#include <optional>
#include <set>
#include <thread>

using namespace mlgo;
using namespace mlgo::test;

namespace {

const char *const Triple = "x86_64-unknown-linux-gnu";
const char *const Cpus[] = {"skylake", "znver4"};

const char *const Kernels = R"(
  .section .text.imul,"ax",@progbits
  imulq %rax, %rax
  .section .text.add,"ax",@progbits
  addq %rax, %rax
  .section .text.xor,"ax",@progbits
  xorq %rbx, %rax
  .section .text.rotates,"ax",@progbits
  roll $7, %eax
  roll $7, %ebx
  roll $7, %ecx
  roll $7, %edx
  roll $7, %esi
  roll $7, %edi
  .section .text.imul_rbx,"ax",@progbits
  imulq %rbx, %rbx
  .section .text.add_load,"ax",@progbits
  addq 8(%rsp), %rax
  .section .text.zero,"ax",@progbits
  xorl %ecx, %ecx
  .section .text.zeros,"ax",@progbits
  xorl %eax, %eax
  xorl %ecx, %ecx
  xorl %edx, %edx
  xorl %esi, %esi
  xorl %edi, %edi
  xorl %r8d, %r8d
  xorl %r9d, %r9d
  .section .text.nop,"ax",@progbits
  nop
  .section .text.divide,"ax",@progbits
  vdivsd %xmm8, %xmm9, %xmm0
  .section .text.push,"ax",@progbits
  pushq %rax
  .section .text.pop,"ax",@progbits
  popq %rbx
  .section .text.stack_address,"ax",@progbits
  leaq 8(%rsp), %rbx
  .section .text.push_pop,"ax",@progbits
  pushq %rax
  popq %rax
  .section .text.spill,"ax",@progbits
  movq %rax, 8(%rsp)
  .section .text.reload,"ax",@progbits
  movq 8(%rsp), %rbx
  .section .text.increment_slot,"ax",@progbits
  addq $1, 8(%rsp)
  .section .text.load_elsewhere,"ax",@progbits
  movq 16(%rsp), %rbx
  .section .text.spill_other,"ax",@progbits
  movq %rcx, 16(%rsp)
  .section .text.imul_rdx,"ax",@progbits
  imulq %rdx, %rdx
  .section .text.store_via_rdx,"ax",@progbits
  movq %rax, (%rdx)
  .section .text.load_via_rdi,"ax",@progbits
  movq 8(%rdi), %rbx
  .section .text.use,"ax",@progbits
  addq %rbx, %rcx
  .section .text.via_push,"ax",@progbits
  pushq %rax
  movq (%rsp), %rbx
  .section .text.via_sub_add,"ax",@progbits
  subq $16, %rsp
  movq %rax, 8(%rsp)
  addq $16, %rsp
  movq -8(%rsp), %rbx
  .section .text.via_rbp,"ax",@progbits
  movq %rsp, %rbp
  movq %rax, -16(%rbp)
  movq -16(%rsp), %rbx
  .section .text.via_lea,"ax",@progbits
  leaq -32(%rsp), %rbp
  movq %rax, 8(%rbp)
  movq -24(%rsp), %rbx
  .section .text.moved_away,"ax",@progbits
  movq %rax, 8(%rsp)
  subq $8, %rsp
  movq 8(%rsp), %rbx
  .section .text.clobbered,"ax",@progbits
  movq %rax, 8(%rsp)
  movq %rdx, %rsp
  movq 8(%rsp), %rbx
  .section .text.copy_chain,"ax",@progbits
  movq %rax, %rbx
  movl %ebx, %eax
  addq %rax, %rax
  .section .text.copy_ring,"ax",@progbits
  movq %rax, %rbx
  movq %rbx, %rcx
  movq %rcx, %rdx
  movq %rdx, %rsi
  movq %rsi, %rdi
  movq %rdi, %rax
  addq %rax, %rax
  .section .text.byte_copies,"ax",@progbits
  movb %al, %bl
  movb %bl, %al
  .section .text.rbp_general,"ax",@progbits
  movq %rdi, %rbp
  movq 8(%rbp), %rbx
  .section .text.rbp_frame,"ax",@progbits
  movq %rsp, %rbp
  movq 8(%rbp), %rbx
  .section .text.compare_branch,"ax",@progbits
  imulq %rax, %rax
  cmpq %rax, %rbx
  jne 0f
0:
  .section .text.spill_reload,"ax",@progbits
  imulq %rax, %rax
  movq %rax, 8(%rsp)
  movq 8(%rsp), %rax
)";

using Code = std::vector<llvm::MCInst>;

/// The kernels, assembled once.
const Code &kernel(const std::string &Name) {
  static const std::map<std::string, Code> All = assemble(Kernels);
  return All.at(Name);
}

Code repeat(const Code &Body, unsigned Times) {
  Code Out;
  for (unsigned K = 0; K < Times; ++K)
    Out.insert(Out.end(), Body.begin(), Body.end());
  return Out;
}

Code operator+(Code A, const Code &B) {
  A.insert(A.end(), B.begin(), B.end());
  return A;
}

/// One processor resource an instruction holds: how many units it can pick from
/// (Lanes), for how many cycles, and which unit resources those are.
struct Held {
  unsigned Lanes = 0, Cycles = 0;
  std::set<unsigned> Units;
};

/// An instruction as mca::InstrBuilder describes it.
struct Described {
  unsigned MicroOps = 0, Latency = 0;
  bool ZeroLatency = false, ReadAdvances = false;
  /// The sizes of the schedulers (buffered resources) it waits in.
  std::vector<unsigned> Schedulers;
  /// By register name: how many cycles early the instruction's read of the register
  /// may take the value its own write of it produces (the read advance of a chain of
  /// copies).
  std::map<std::string, int> SelfAdvance;
  std::map<std::string, unsigned> WriteLatency; ///< by register name
  std::vector<Held> Resources;
};

/// One CPU: the flow engine, MCA without the stack engine, and the model's numbers.
struct Cpu {
  std::string Name;
  std::unique_ptr<Engine> Flow, Mca;
  std::unique_ptr<McaInstructionBuilder> Builder;
  std::vector<uint64_t> Masks;

  explicit Cpu(const std::string &Name) : Name(Name) {
    initializeTargets();
    Flow = requireOk(createEngine(EngineKind::Flow, Triple, Name, false));
    Mca = requireOk(createEngine(EngineKind::Mca, Triple, Name, false));
    Builder = std::make_unique<McaInstructionBuilder>(Flow->target());
    Masks.resize(model().getNumProcResourceKinds());
    llvm::mca::computeProcResourceMasks(model(), Masks);
  }

  const llvm::MCSchedModel &model() const { return Flow->target().subtarget().getSchedModel(); }
  unsigned width() const { return model().IssueWidth; }
  /// As MCA sizes it: the extra processor info's reorder buffer, else the micro-op
  /// buffer.
  unsigned reorderBuffer() const {
    if (model().hasExtraProcessorInfo() && model().getExtraProcessorInfo().ReorderBufferSize)
      return model().getExtraProcessorInfo().ReorderBufferSize;
    return model().MicroOpBufferSize;
  }
  /// Instructions retired a cycle at most; 0 for any number.
  unsigned retireWidth() const {
    return model().hasExtraProcessorInfo() ? model().getExtraProcessorInfo().MaxRetirePerCycle : 0;
  }

  Described describe(const llvm::MCInst &Inst) {
    auto Made = requireOk(Builder->create(Inst));
    const llvm::mca::InstrDesc &Desc = Made->getDesc();
    const llvm::MCSubtargetInfo &STI = Flow->target().subtarget();
    Described D;
    D.MicroOps = Desc.NumMicroOps;
    D.Latency = Desc.MaxLatency;
    D.ZeroLatency = Desc.isZeroLatency();
    const llvm::MCSchedClassDesc &Class = *model().getSchedClassDesc(Desc.SchedClassID);
    D.ReadAdvances = !STI.getReadAdvanceEntries(Class).empty();
    for (auto *W = STI.getWriteProcResBegin(&Class); W != STI.getWriteProcResEnd(&Class); ++W)
      if (model().getProcResource(W->ProcResourceIdx)->BufferSize > 0)
        D.Schedulers.push_back(model().getProcResource(W->ProcResourceIdx)->BufferSize);
    const llvm::MCRegisterInfo &MRI = Flow->target().registerInfo();
    for (const llvm::mca::WriteState &W : Made->getDefs()) {
      D.WriteLatency[MRI.getName(W.getRegisterID())] = W.getLatency();
      for (const llvm::mca::ReadState &R : Made->getUses())
        if (R.getRegisterID() == W.getRegisterID()) {
          int Advance =
              STI.getReadAdvanceCycles(model().getSchedClassDesc(R.getSchedClass()),
                                       R.getDescriptor().UseIndex, W.getWriteResourceID());
          int &Max = D.SelfAdvance[MRI.getName(W.getRegisterID())];
          Max = std::max(Max, Advance);
        }
    }
    for (const auto &[Mask, Use] : Desc.Resources) {
      if (!Use.size())
        continue;
      REQUIRE_FALSE(Use.isReserved());
      unsigned Id = std::find(Masks.begin(), Masks.end(), Mask) - Masks.begin();
      REQUIRE(Id < Masks.size());
      const llvm::MCProcResourceDesc &R = *model().getProcResource(Id);
      Held H;
      H.Cycles = Use.size();
      if (!R.SubUnitsIdxBegin) {
        H.Lanes = R.NumUnits;
        H.Units.insert(Id);
      } else {
        for (unsigned U = 0; U < R.NumUnits; ++U) {
          H.Lanes += model().getProcResource(R.SubUnitsIdxBegin[U])->NumUnits;
          H.Units.insert(R.SubUnitsIdxBegin[U]);
        }
      }
      D.Resources.push_back(H);
    }
    return D;
  }
  Described describe(const std::string &Kernel) {
    REQUIRE(kernel(Kernel).size() == 1);
    return describe(kernel(Kernel)[0]);
  }

  /// The cycles of \p Body run \p Times times (as consecutive events) on a core of
  /// \p E; checks that every instruction retired and that the cycles per function add
  /// up.
  static uint64_t run(Engine &E, const Code &Body, unsigned Times = 1) {
    auto Core = E.startCore(1);
    std::vector<uint64_t> Addresses(Body.size());
    for (unsigned K = 0; K < Times; ++K)
      requireSuccess(Core->add({0, K, Body, Addresses, {}, {}}));
    requireSuccess(Core->finish());
    REQUIRE(Core->instructions() == Body.size() * Times);
    REQUIRE(Core->cyclesByFunction()[0] == Core->cycles());
    return Core->cycles();
  }
  uint64_t flow(const Code &Body, unsigned Times = 1) { return run(*Flow, Body, Times); }
  uint64_t mca(const Code &Body, unsigned Times = 1) { return run(*Mca, Body, Times); }
};

Cpu &cpu(const std::string &Name) {
  static std::map<std::string, std::unique_ptr<Cpu>> All;
  auto &C = All[Name];
  if (!C)
    C = std::make_unique<Cpu>(Name);
  return *C;
}

/// N dependent instructions of latency L: the first issues in cycle 1, each next one L
/// cycles later, the last completes (and retires) at 1 + N * L.
uint64_t chainCycles(uint64_t N, uint64_t L) { return 1 + N * L + 1; }

/// How a stream of independent copies of one instruction is bound by its resources:
/// Lanes units of one resource, each busy Cycles per instruction.
struct Throughput {
  unsigned Lanes, Cycles;
};

/// The resource that bounds a stream of independent copies of \p D, after checking
/// that no other resource and not the dispatch width slows it further.
Throughput boundBy(const Described &D, unsigned Width) {
  REQUIRE_FALSE(D.Resources.empty());
  const Held *Bound = &D.Resources[0];
  for (const Held &H : D.Resources)
    if (uint64_t(H.Lanes) * Bound->Cycles < uint64_t(Bound->Lanes) * H.Cycles)
      Bound = &H;
  for (const Held &H : D.Resources) {
    if (&H == Bound)
      continue;
    // Disjoint units, and enough of them for the instructions the bound lets through
    // while one of them holds a unit.
    for (unsigned U : H.Units)
      REQUIRE(Bound->Units.count(U) == 0);
    REQUIRE(H.Lanes >= Bound->Lanes * ((H.Cycles + Bound->Cycles - 1) / Bound->Cycles));
  }
  // Dispatch at least as many a cycle as the bound issues at once.
  REQUIRE(D.MicroOps <= Width);
  REQUIRE(Width / D.MicroOps >= Bound->Lanes);
  return {Bound->Lanes, Bound->Cycles};
}

/// N independent copies bound by \p T: copy k issues in cycle 1 + Cycles * (k / Lanes)
/// and completes Latency later.
uint64_t throughputCycles(uint64_t N, Throughput T, uint64_t Latency) {
  return 1 + T.Cycles * ((N - 1) / T.Lanes) + Latency + 1;
}

} // namespace

TEST_CASE("flow: a dependent chain takes N times the latency", "[replay][flow]") {
  for (const char *Name : Cpus) {
    INFO(Name);
    Cpu &C = cpu(Name);
    for (const char *Kernel : {"imul", "add"}) {
      INFO(Kernel);
      Described D = C.describe(Kernel);
      REQUIRE_FALSE(D.ReadAdvances);
      // Each copy reads the rax the one before wrote.
      uint64_t L = D.WriteLatency.at("RAX");
      REQUIRE(L >= 1);
      for (unsigned N : {1u, 10u, 500u})
        CHECK(C.flow(kernel(Kernel), N) == chainCycles(N, L));
    }
  }
}

TEST_CASE("flow: a register xor takes one cycle and a rotate by an immediate one micro-op, "
          "whatever the model says",
          "[replay][flow]") {
  // LLVM's Golden Cove model gives xor a latency of 2 and a rotate two micro-ops that
  // hold p0 or p6 two cycles, which MCA follows; the cores (and this Emerald Rapids host,
  // bench/tools/alu-ops.c) take one cycle and one micro-op.
  Cpu &Emr = cpu("emeraldrapids");
  REQUIRE(Emr.describe("xor").WriteLatency.at("RAX") == 2);
  REQUIRE(Emr.describe(kernel("rotates")[0]).MicroOps == 2);
  CHECK(Emr.mca(kernel("xor"), 500) >= 2 * 500);
  CHECK(Emr.mca(kernel("rotates"), 100) >= 6 * 2 * 100 / 2);
  for (const char *Name : {"skylake", "znver4", "emeraldrapids"}) {
    INFO(Name);
    Cpu &C = cpu(Name);
    for (unsigned N : {1u, 10u, 500u})
      CHECK(C.flow(kernel("xor"), N) == chainCycles(N, 1));
  }
  // 600 independent rotates on the two ports that rotate: 300 cycles, and a few to
  // start and end.
  for (const char *Name : {"skylake", "emeraldrapids"}) {
    INFO(Name);
    uint64_t Cycles = cpu(Name).flow(kernel("rotates"), 100);
    CHECK(Cycles >= 300);
    CHECK(Cycles <= 305);
  }
}

TEST_CASE("flow: operations without resources are bound by the dispatch width", "[replay][flow]") {
  for (const char *Name : Cpus) {
    INFO(Name);
    Cpu &C = cpu(Name);
    unsigned W = C.width();
    // Retirement keeps up with dispatch.
    REQUIRE((C.retireWidth() == 0 || C.retireWidth() >= W));
    // Zero idioms on seven registers: no inputs, no resources, no latency, so done when
    // dispatched: W a cycle from cycle 0 on.
    for (const llvm::MCInst &Inst : kernel("zeros")) {
      Described D = C.describe(Inst);
      REQUIRE(D.ZeroLatency);
      REQUIRE(D.MicroOps == 1);
    }
    for (unsigned Times : {1u, 6u, 100u}) {
      uint64_t N = kernel("zeros").size() * Times;
      CHECK(C.flow(kernel("zeros"), Times) == (N - 1) / W + 1);
    }
    // Where a nop executes without resources (skylake), it issues the cycle after its
    // dispatch and completes its latency later; where it holds an ALU (znver4), see the
    // next test.
    Described Nop = C.describe("nop");
    if (Nop.Resources.empty()) {
      REQUIRE_FALSE(Nop.ZeroLatency);
      REQUIRE(Nop.MicroOps == 1);
      for (uint64_t N : {1u, 6u, 7u, 600u})
        CHECK(C.flow(kernel("nop"), N) == (N - 1) / W + 1 + Nop.Latency + 1);
    }
  }
}

TEST_CASE("flow: independent operations are bound by their busiest resource", "[replay][flow]") {
  for (const char *Name : Cpus) {
    INFO(Name);
    Cpu &C = cpu(Name);
    // A divide holds a single divider unit for several cycles (skylake: the FP divider,
    // 4 of its 14 cycles; znver4: FP1, 5 of 13); each writes xmm0 without reading it,
    // so the copies are independent.
    Described Divide = C.describe("divide");
    Throughput T = boundBy(Divide, C.width());
    REQUIRE(T.Lanes == 1);
    REQUIRE(T.Cycles > 1);
    for (unsigned N : {1u, 2u, 50u, 300u})
      CHECK(C.flow(kernel("divide"), N) == throughputCycles(N, T, Divide.Latency));
    // A nop that holds one of four ALUs (znver4) goes four a cycle, below the width.
    Described Nop = C.describe("nop");
    if (!Nop.Resources.empty()) {
      Throughput Alu = boundBy(Nop, C.width());
      REQUIRE(Alu.Lanes < C.width());
      for (unsigned N : {1u, 5u, 400u})
        CHECK(C.flow(kernel("nop"), N) == throughputCycles(N, Alu, Nop.Latency));
    }
  }
}

TEST_CASE("flow: a long chain fills the reorder buffer and holds back what follows",
          "[replay][flow]") {
  for (const char *Name : Cpus) {
    INFO(Name);
    Cpu &C = cpu(Name);
    const uint64_t W = C.width(), R = C.reorderBuffer(), RW = C.retireWidth();
    Described Chain = C.describe("imul"), Zero = C.describe("zero");
    REQUIRE(C.describe("imul_rbx").WriteLatency.at("RBX") == Chain.WriteLatency.at("RAX"));
    const uint64_t L = Chain.WriteLatency.at("RAX");
    REQUIRE((Chain.MicroOps == 1 && Zero.MicroOps == 1 && Zero.ZeroLatency));
    REQUIRE((RW == 0 || RW >= W));
    // The kernel: A, a chain of A imuls on rax (done at E = 1 + A * L); then R zero
    // idioms, done when dispatched but retired only after A, so that the reorder
    // buffer fills; then B, a chain of B imuls on rbx, independent of A. Instruction i
    // needs the entry of instruction i - R, free from the cycle after that one retired
    // (FlowSimulator.cpp's convention): the first R + A - 1 dispatch before E + 1
    // (A long enough), the zero idiom at R + A - 1 waits for A's last to retire (E),
    // and B's instructions, whose entries are the zero idioms', dispatch from E + 1 on,
    // W - 1 in that cycle. B's first issues at E + 2, its last completes at
    // E + 2 + B * L, after the zero idioms retired (B long enough).
    uint64_t A = 1;
    while (!((R - 1) / W <= 1 + A * L && (R + A - 1) / W <= 1 + A * L))
      ++A;
    uint64_t B = 1;
    while (RW && !((R + B) / RW < 2 + B * L))
      ++B;
    const uint64_t E = 1 + A * L;
    INFO("A " << A << ", B " << B << ", E " << E);
    // Both chains wait in their scheduler without filling it.
    REQUIRE(Chain.Schedulers.size() == 1);
    REQUIRE(std::max(A, B) < Chain.Schedulers[0]);
    Code Kernel =
        repeat(kernel("imul"), A) + repeat(kernel("zero"), R) + repeat(kernel("imul_rbx"), B);
    CHECK(C.flow(Kernel) == E + 2 + B * L + 1);
  }
}

TEST_CASE("flow: a full scheduler holds back dispatch", "[replay][flow]") {
  for (const char *Name : Cpus) {
    INFO(Name);
    Cpu &C = cpu(Name);
    Described Chain = C.describe("imul");
    REQUIRE(Chain.Schedulers.size() == 1);
    const uint64_t S = Chain.Schedulers[0], L = Chain.WriteLatency.at("RAX");
    REQUIRE(C.describe("imul_rbx").Schedulers == Chain.Schedulers);
    REQUIRE(L >= 2); // the two chains never want the multiplier in the same cycle
    // K imuls chained on rax, then M on rbx, independent of them. Each waits in the
    // scheduler until it issues (its place is free from its issue cycle on, as
    // FlowSimulator.cpp has it), and rax's issue one every L cycles (the first in
    // cycle 1): rbx's first dispatches once S of the K remain, when rax's K - S issues,
    // in cycle 1 + (K - S) * L; from then on a place is free whenever rbx's chain needs
    // one. Without that limit rbx's chain would start near cycle (K + 1) / W.
    const uint64_t K = S + 10, M = S + 10;
    REQUIRE(K + M <= C.reorderBuffer());
    REQUIRE(K / C.width() < 1 + (K - S) * L);
    const uint64_t FirstIssue = 1 + (K - S) * L + 1;
    Code Kernel = repeat(kernel("imul"), K) + repeat(kernel("imul_rbx"), M);
    CHECK(C.flow(Kernel) == FirstIssue + M * L + 1);
  }
}

TEST_CASE("flow: a read advance shortens a chain", "[replay][flow]") {
  for (const char *Name : Cpus) {
    INFO(Name);
    Cpu &C = cpu(Name);
    // add 8(%rsp), %rax, chained on rax: the load issues with the instruction, and the
    // add reads rax only after the load, so rax may come Advance cycles late (LLVM's
    // ReadAfterLd): one copy every L - Advance cycles, each complete L after its issue.
    Described Add = C.describe("add_load");
    const uint64_t L = Add.WriteLatency.at("RAX");
    const int Advance = Add.SelfAdvance.at("RAX");
    INFO("latency " << L << ", advance " << Advance);
    REQUIRE(Advance > 0);
    REQUIRE(L - Advance >= 1);
    const uint64_t Period = L - Advance;
    for (const Held &H : Add.Resources)
      REQUIRE(H.Lanes * Period >= H.Cycles);
    REQUIRE(Add.MicroOps <= C.width());
    for (unsigned N : {1u, 10u, 300u})
      CHECK(C.flow(kernel("add_load"), N) == 1 + (N - 1) * Period + Add.Latency + 1);
  }
}

TEST_CASE("flow: the stack engine frees push and pop from the stack pointer chain",
          "[replay][flow]") {
  for (const char *Name : Cpus) {
    INFO(Name);
    Cpu &C = cpu(Name);
    Described Push = C.describe("push"), Pop = C.describe("pop");
    REQUIRE_FALSE(Push.ReadAdvances);
    REQUIRE_FALSE(Pop.ReadAdvances);
    const uint64_t PushRsp = Push.WriteLatency.at("RSP"), PopRsp = Pop.WriteLatency.at("RSP");
    // Pushes of rax: the stores go through the store unit(s) (skylake: port 4, one a
    // cycle; znver4: two store units busy two cycles each), whatever the latency of
    // their stack pointer writes.
    Throughput Stores = boundBy(Push, C.width());
    // Pops into rbx: the loads go through the load ports (skylake two, znver4 three a
    // cycle), not one stack pointer latency after another.
    Throughput Loads = boundBy(Pop, C.width());
    for (unsigned N : {1u, 64u, 500u}) {
      INFO(N);
      CHECK(C.flow(kernel("push"), N) == throughputCycles(N, Stores, Push.Latency));
      CHECK(C.flow(kernel("pop"), N) == throughputCycles(N, Loads, Pop.Latency));
      // MCA without the stack engine: each waits for the stack pointer the one before
      // wrote.
      CHECK(C.mca(kernel("pop"), N) >= N * PopRsp);
      CHECK(C.mca(kernel("push"), N) >= N * PushRsp);
    }
    CHECK(C.flow(kernel("pop"), 500) < 500 * PopRsp);
    // What reads the stack pointer after pushes has it the cycle after the last push
    // dispatched, not once the push executed: four pushes, then lea 8(%rsp) into rbx
    // and four imuls on rbx.
    Described Lea = C.describe("stack_address"), Mul = C.describe("imul_rbx");
    REQUIRE_FALSE(Lea.ReadAdvances);
    const uint64_t Pushes = 4, Muls = 4, PerCycle = C.width() / Push.MicroOps;
    const uint64_t LastCycle = (Pushes - 1) / PerCycle;
    const uint64_t Used = (Pushes - LastCycle * PerCycle) * Push.MicroOps;
    const uint64_t LeaDispatch = Used + Lea.MicroOps <= C.width() ? LastCycle : LastCycle + 1;
    const uint64_t ChainEnd =
        LeaDispatch + 1 + Lea.WriteLatency.at("RBX") + Muls * Mul.WriteLatency.at("RBX");
    REQUIRE(throughputCycles(Pushes, Stores, Push.Latency) <= ChainEnd + 1);
    CHECK(C.flow(repeat(kernel("push"), Pushes) + kernel("stack_address") +
                 repeat(kernel("imul_rbx"), Muls)) == ChainEnd + 1);
    // push rax; pop rax, in a loop: the pop reads the slot its push just wrote (after
    // the push issued, a load latency and the forwarding's cycles later), the next push
    // stores that value: a chain of one forwarded pop per iteration, and none through
    // the stack pointer. MCA without the stack engine chains the stack pointer's
    // writes, push to pop to push.
    const uint64_t PopRax = C.describe(kernel("push_pop")[1]).WriteLatency.at("RAX") +
                            FlowSimulator::ForwardingCycles;
    for (unsigned N : {1u, 100u}) {
      INFO(N);
      CHECK(C.flow(kernel("push_pop"), N) == 1 + N * PopRax + 1);
      CHECK(C.mca(kernel("push_pop"), N) >= N * (PushRsp + PopRsp));
    }
  }
}

TEST_CASE("flow: register moves are renamed away", "[replay][flow]") {
  for (const char *Name : Cpus) {
    INFO(Name);
    Cpu &C = cpu(Name);
    // Copies back and forth between adds: each copy is eliminated when it dispatches,
    // so the chain takes the adds' latency alone (skylake: the model declares no move
    // elimination but the cores do it; znver4: its model declares it). Three
    // instructions a link dispatch faster than the adds' chain runs.
    const Code &Link = kernel("copy_chain");
    const uint64_t La = C.describe(Link[2]).WriteLatency.at("RAX");
    REQUIRE(La >= 1);
    REQUIRE(C.width() >= Link.size() * La);
    for (unsigned N : {1u, 10u, 300u}) {
      INFO(N);
      CHECK(C.flow(Link, N) == chainCycles(N, La));
    }
    // More copies a cycle than the register file eliminates (znver4: 4): the others are
    // done without resources, but never before their operands, so the adds still chain.
    const Code &Ring = kernel("copy_ring");
    CHECK(C.flow(Ring, 200) >= 200 * La);
    // MCA copies through an ALU where the model declares no elimination.
    if (std::string(Name) == "skylake")
      CHECK(C.mca(Link, 300) >= 300 * (La + 2));
  }
  // Byte moves merge into their register and are not eliminated: each one waits for
  // the one before.
  Cpu &C = cpu("skylake");
  const Code &Bytes = kernel("byte_copies");
  const uint64_t Lb = C.describe(Bytes[0]).WriteLatency.at("BL");
  REQUIRE(Lb >= 1);
  CHECK(C.flow(Bytes, 100) == chainCycles(200, Lb));
}

TEST_CASE("flow: a reload gets its value from the spill that wrote its slot", "[replay][flow]") {
  for (const char *Name : Cpus) {
    INFO(Name);
    Cpu &C = cpu(Name);
    Described Mul = C.describe("imul"), Spill = C.describe("spill"), Reload = C.describe("reload"),
              Use = C.describe("use");
    for (const Described *D : {&Mul, &Spill, &Reload, &Use})
      REQUIRE_FALSE(D->ReadAdvances);
    const uint64_t Li = Mul.WriteLatency.at("RAX"), Lr = Reload.WriteLatency.at("RBX"),
                   Lu = Use.WriteLatency.at("RCX"), F = FlowSimulator::ForwardingCycles;
    // Four imuls make rax late (1 + 4 * Li); the spill of rax issues then. The reload
    // of the same slot issues early (loads of stack slots do not wait for stores) but
    // its value comes a load latency and the forwarding's cycles after the spill
    // issued; the add that uses it completes Lu later.
    const uint64_t M = 4, Stored = 1 + M * Li;
    Code Forwarded = repeat(kernel("imul"), M) + kernel("spill") + kernel("reload") + kernel("use");
    CHECK(C.flow(Forwarded) == Stored + Lr + F + Lu + 1);
    // The same load from a slot no store wrote gets its value a load latency after it
    // issued: the add is done early, and the stream ends when the spill completes.
    Code Elsewhere =
        repeat(kernel("imul"), M) + kernel("spill") + kernel("load_elsewhere") + kernel("use");
    REQUIRE(1 + 1 + Lr + Lu <= Stored + Spill.Latency);
    CHECK(C.flow(Elsewhere) == Stored + Spill.Latency + 1);
    // A value carried through a stack slot in a loop (imul rax; spill rax; reload rax):
    // each iteration takes the imul's latency plus the forwarded reload's.
    const Code &Loop = kernel("spill_reload");
    const uint64_t LoopReload = C.describe(Loop[2]).WriteLatency.at("RAX");
    for (unsigned N : {1u, 3u, 200u}) {
      INFO(N);
      CHECK(C.flow(Loop, N) == 1 + N * (Li + LoopReload + F) + 1);
    }
    // A core profile that measured the forwarding latency (calibrate: 5 cycles on the
    // Intel of family 6 model 207) puts it in the place of the load's latency and F.
    for (unsigned Forward : {4u, 5u, 9u}) {
      INFO("forwarded " << Forward << " cycles after the spill issued");
      CoreProfile Profile;
      Profile.ForwardedReloadCycles = Forward;
      auto E = requireOk(createEngine(EngineKind::Flow, Triple, Name, false, {}, Profile));
      CHECK(Cpu::run(*E, Forwarded) == Stored + Forward + Lu + 1);
      CHECK(Cpu::run(*E, Elsewhere) == C.flow(Elsewhere));
      for (unsigned N : {1u, 3u, 200u}) {
        INFO(N);
        CHECK(Cpu::run(*E, Loop, N) == 1 + N * (Li + Forward) + 1);
      }
    }
  }
}

TEST_CASE("flow: what an operation on a stack slot stores is ready after the value it loaded",
          "[replay][flow]") {
  for (const char *Name : Cpus) {
    INFO(Name);
    Cpu &C = cpu(Name);
    const uint64_t Li = C.describe("imul").WriteLatency.at("RAX"),
                   Lr = C.describe("reload").WriteLatency.at("RBX"),
                   Lu = C.describe("use").WriteLatency.at("RCX"), F = FlowSimulator::ForwardingCycles,
                   M = 4, Stored = 1 + M * Li;
    // imul rax four times; spill rax; K times add [rsp + 8], 1; reload; use.
    auto stream = [](unsigned K) {
      return repeat(kernel("imul"), M) + kernel("spill") + repeat(kernel("increment_slot"), K) +
             kernel("reload") + kernel("use");
    };
    for (unsigned K : {1u, 2u, 5u}) {
      INFO(K << " adds to the slot");
      Code Stream = stream(K);
      // Without a profile that says how soon an add has the slot's value, an add
      // stores when it issues: the adds make no chain, each more costs a cycle at most.
      CHECK(C.flow(Stream) <= C.flow(stream(1)) + (K - 1));
      // With one (0 cycles on the Intel of family 6 model 207), each add has the value
      // that long after the store before it, stores its sum a cycle later, and the
      // reload gets the last sum as forwarded reloads do.
      for (unsigned Forward : {5u, 9u})
        for (unsigned Operation : {0u, 2u}) {
          INFO("forwarded " << Forward << " cycles, an add " << Operation << " after the store");
          CoreProfile Profile;
          Profile.ForwardedReloadCycles = Forward;
          Profile.SlotOperationCycles = Operation;
          auto E = requireOk(createEngine(EngineKind::Flow, Triple, Name, false, {}, Profile));
          CHECK(Cpu::run(*E, Stream) == Stored + K * (Operation + 1) + Forward + Lu + 1);
        }
      // Without a forwarding latency, the reload's is a load's and F.
      CoreProfile Profile;
      Profile.SlotOperationCycles = 1;
      auto E = requireOk(createEngine(EngineKind::Flow, Triple, Name, false, {}, Profile));
      CHECK(Cpu::run(*E, Stream) == Stored + K * 2 + Lr + F + Lu + 1);
    }
  }
}

TEST_CASE("flow: a core that renames memory gives a plain reload the spilled register's value",
          "[replay][flow]") {
  for (const char *Name : Cpus) {
    Cpu &C = cpu(Name);
    const uint64_t Li = C.describe("imul").WriteLatency.at("RAX"), Ls = C.describe("spill").Latency,
                   Lu = C.describe("use").WriteLatency.at("RCX"), M = 4, Stored = 1 + M * Li;
    const Code &Loop = kernel("spill_reload");
    const uint64_t LoopStore = C.describe(Loop[1]).Latency;
    for (unsigned Renamed : {0u, 1u, 3u}) {
      INFO(Name << ", reload " << Renamed << " cycles after the spill's data");
      CoreProfile Profile;
      Profile.RenamedReloadCycles = Renamed;
      auto E = requireOk(createEngine(EngineKind::Flow, Triple, Name, false, {}, Profile));
      // As in the test above, four imuls make rax late and the spill of rax issues at
      // Stored; the reload into rbx has rax's value Renamed cycles later (not a load
      // latency and the forwarding's cycles), the add that uses it Lu after that. The
      // stream ends when the later of the add and the spill completes.
      CHECK(Cpu::run(*E, repeat(kernel("imul"), M) + kernel("spill") + kernel("reload") +
                             kernel("use")) == std::max(Stored + Renamed + Lu, Stored + Ls) + 1);
      // imul rax; spill rax; reload rax in a loop: each iteration takes the imul's latency
      // plus Renamed; the last reload retires after the last spill completes, and after
      // its own load executed (the core checks the renaming with a load): on one
      // iteration, that load, issued in cycle 1, is the last to complete. The first
      // reload, dispatched in cycle 0, has its value no sooner than a load's latency
      // later (below), which delays the chain by Late.
      const uint64_t LoopReload = C.describe(Loop[2]).WriteLatency.at("RAX");
      const uint64_t Late = LoopReload - std::min(LoopReload, 1 + Li + Renamed);
      for (unsigned N : {1u, 3u, 200u}) {
        INFO(N);
        const uint64_t Chain = (N > 1 ? Late : 0) + 1 + N * Li + (N - 1) * Renamed +
                               std::max<uint64_t>(Renamed, LoopStore);
        CHECK(Cpu::run(*E, Loop, N) == std::max(Chain, 1 + LoopReload) + 1);
      }
      // Renaming pays only where dispatch runs ahead of the data. A reload that
      // dispatches long after its spill (behind K kernels of zero idioms here, as after
      // a misprediction) has the value a load's latency after its dispatch, as from the
      // cache; the add that uses it completes Lu later.
      const Code &Zeros = kernel("zeros");
      const uint64_t Lr = C.describe("reload").WriteLatency.at("RBX");
      REQUIRE(C.describe("spill").MicroOps == 1);
      for (unsigned K : {20u, 50u}) {
        INFO(K << " kernels of zero idioms between");
        const uint64_t Dispatched = (1 + K * Zeros.size()) / C.width();
        CHECK(Cpu::run(*E, kernel("spill") + repeat(Zeros, K) + kernel("reload") +
                               kernel("use")) == Dispatched + Lr + Lu + 1);
      }
      // A reload folded into an operation (add 8(%rsp), %rax) is not renamed: four imuls
      // on rax, the spill, then the folded add waits for the forwarded value as without
      // a profile.
      Code Folded = repeat(kernel("imul"), M) + kernel("spill") + kernel("add_load");
      CHECK(Cpu::run(*E, Folded) == C.flow(Folded));
    }
  }
}

TEST_CASE("flow: Zen 5's profile gives a folded reload the spill's value when it issues",
          "[replay][flow]") {
  // calibrate on Zen 5 (AMD EPYC family 26 model 2; LLVM's znver5 is Zen 4's model)
  // measured every store-to-load path at 0 cycles, a reload folded into an operation's
  // too, so its built-in profile forwards in 0 cycles: four imuls make rax late, the
  // spill of rax issues at Stored, and the folded add (add 8(%rsp), %rax), which reads
  // rax Advance cycles after it issues, has the slot's value then: its result comes as
  // if the load had hit the cache, Stored - Advance + La, where the engine's own rule
  // gives the slot's value a load's latency and ForwardingCycles after the spill (Zen
  // 4's profile keeps that rule).
  Cpu &C = cpu("znver5");
  const CoreProfile Zen5 = builtInCoreProfile("znver5");
  REQUIRE(Zen5.ForwardedReloadCycles == 0u);
  REQUIRE(Zen5.RenamedReloadCycles == 0u);
  Described Add = C.describe("add_load");
  const uint64_t Li = C.describe("imul").WriteLatency.at("RAX"), Ls = C.describe("spill").Latency,
                 La = Add.WriteLatency.at("RAX"), Advance = Add.SelfAdvance.at("RAX"), M = 4,
                 Stored = 1 + M * Li, F = FlowSimulator::ForwardingCycles;
  REQUIRE(Advance < La);
  Code Folded = repeat(kernel("imul"), M) + kernel("spill") + kernel("add_load");
  auto E = requireOk(createEngine(EngineKind::Flow, Triple, "znver5", false, {}, Zen5));
  CHECK(Cpu::run(*E, Folded) == Stored + std::max(La - Advance, Ls) + 1);
  auto Zen4Rule = requireOk(createEngine(EngineKind::Flow, Triple, "znver5", false, {},
                                         builtInCoreProfile("znver4")));
  CHECK(Cpu::run(*Zen4Rule, Folded) == Stored + La + F + 1);
}

TEST_CASE("flow: a core that issues two plain stores a cycle holds their resources half as long",
          "[replay][flow]") {
  // LLVM's znver5 (Zen 4's model) lets one plain store through a cycle: each holds one of
  // two store units for 2 cycles. calibrate measured two a cycle on Zen 5
  // (StoresPerCycle 2): a plain store then holds each resource at most its units / 2
  // cycles, at least one, and independent stores go as the busiest of those allows. An
  // add to a slot, which loads too, keeps the model's cycles.
  Cpu &C = cpu("znver5");
  CoreProfile Profile;
  Profile.StoresPerCycle = 2;
  auto E = requireOk(createEngine(EngineKind::Flow, Triple, "znver5", false, {}, Profile));
  Described Spill = C.describe("spill");
  Throughput Model = boundBy(Spill, C.width());
  REQUIRE(Model.Lanes < 2 * Model.Cycles); // fewer than two a cycle
  Described Halved = Spill;
  for (Held &H : Halved.Resources)
    H.Cycles = std::min(H.Cycles, std::max(1u, H.Lanes / 2));
  Throughput Two = boundBy(Halved, C.width());
  REQUIRE(Two.Lanes == 2 * Two.Cycles);
  for (unsigned N : {1u, 2u, 50u, 300u}) {
    INFO(N << " stores");
    CHECK(C.flow(kernel("spill"), N) == throughputCycles(N, Model, Spill.Latency));
    CHECK(Cpu::run(*E, kernel("spill"), N) == throughputCycles(N, Two, Spill.Latency));
  }
  CHECK(Cpu::run(*E, kernel("increment_slot"), 50) == C.flow(kernel("increment_slot"), 50));
}

TEST_CASE("flow: the front end fetches a block a cycle, split where it enters a line",
          "[replay][flow]") {
  for (const char *Name : Cpus) {
    INFO(Name);
    Cpu &C = cpu(Name);
    CoreProfile Profile;
    Profile.FetchLineBytes = 64;
    auto E = requireOk(createEngine(EngineKind::Flow, Triple, Name, false, {}, Profile));
    const Code &Zero = kernel("zero"); // done when dispatched: only fetch and dispatch pace it
    REQUIRE(C.describe(Zero[0]).ZeroLatency);
    const std::vector<uint8_t> Two = {2}; // its bytes
    // N events of one zero idiom each, at Step bytes from one another from Start, lines
    // counted from Base (or, for odd events, from OddBase): the cycles of the stream.
    auto cycles = [&](unsigned N, uint64_t Start, uint64_t Step, const std::vector<uint8_t> &Sizes,
                      uint64_t Base = 0, std::optional<uint64_t> OddBase = {}) {
      std::vector<uint64_t> Addresses(N);
      auto Core = E->startCore(1);
      for (unsigned K = 0; K < N; ++K) {
        Addresses[K] = Start + K * Step;
        RefilledCode Event{0, K, Zero, llvm::ArrayRef(Addresses).slice(K, 1), {}, {}};
        Event.Sizes = Sizes;
        Event.LineBase = K % 2 ? OddBase.value_or(Base) : Base;
        requireSuccess(Core->add(Event));
      }
      requireSuccess(Core->finish());
      return Core->cycles();
    };
    for (unsigned N : {1u, 10u, 100u}) {
      INFO(N);
      // Each one reached by a taken jump (a line apart, or 16 bytes: not where the one
      // before ended): a block, and a cycle, each; the first is fetched in cycle 1.
      CHECK(cycles(N, 0, 64, Two) == N + 1);
      CHECK(cycles(N, 0, 16, Two) == N + 1);
      // Each where the one before ended, through one line and into the next ones: a
      // line a cycle, and a line holds 32 of them, more than a cycle's dispatch, so
      // fetch stays ahead and they dispatch W a cycle as without a front end, after the
      // first fetch's cycle.
      REQUIRE(C.width() < 32);
      CHECK(cycles(N, 0, 2, Two) == C.flow(repeat(Zero, N)) + 1);
      // Starting at the last byte of a line: each instruction enters a line.
      CHECK(cycles(N, 63, 64, Two) == 2 * N + 1);
      // Lines count from the function's start (an object's code fetches as linked): 32
      // bytes on, the same.
      CHECK(cycles(N, 32, 2, Two, 32) == C.flow(repeat(Zero, N)) + 1);
      CHECK(cycles(N, 95, 64, Two, 32) == 2 * N + 1);
      CHECK(cycles(N, 63, 64, Two, 32) == N + 1);
      // Code of another function is reached by a transfer, even where the last ended.
      CHECK(cycles(N, 0, 2, Two, 0, 4096) == N + 1);
    }
    // Code without its instructions' sizes is not fetched.
    CHECK(cycles(10, 0, 64, {}) == C.flow(repeat(Zero, 10)));

    // The same N instructions in one event fetch as in events of one each: the blocks
    // within an event are found when its code is described. And code handed over first
    // without its sizes (a chunk's warm-up) fetches later as if the warm-up had been
    // other code.
    const unsigned N = 40;
    const Code Zeros = repeat(Zero, N), Copy = Zeros;
    enum WarmUp { None, Same, Other };
    auto inOneEvent = [&](uint64_t Start, uint64_t Step, WarmUp First) {
      std::vector<uint64_t> Addresses(N);
      for (unsigned K = 0; K < N; ++K)
        Addresses[K] = Start + K * Step;
      auto Core = E->startCore(1);
      if (First != None)
        requireSuccess(Core->add({0, 0, First == Same ? Zeros : Copy, Addresses, {}, {}}));
      RefilledCode Event{0, 1, Zeros, Addresses, {}, {}};
      const std::vector<uint8_t> Sizes(N, 2);
      Event.Sizes = Sizes;
      requireSuccess(Core->add(Event));
      requireSuccess(Core->finish());
      return Core->cycles();
    };
    for (auto [Start, Step] : {std::pair<uint64_t, uint64_t>{0, 64}, {0, 16}, {0, 2}, {63, 64},
                               {62, 2}, {63, 3}}) {
      INFO("from " << Start << ", " << Step << " bytes apart");
      CHECK(inOneEvent(Start, Step, None) == cycles(N, Start, Step, Two));
      CHECK(inOneEvent(Start, Step, Same) == inOneEvent(Start, Step, Other));
    }
  }
}

TEST_CASE("flow: Zen 5's front end: two blocks a cycle, a line's operations, split jumps",
          "[replay][flow]") {
  for (const char *Name : Cpus) {
    INFO(Name);
    cpu(Name); // the targets, registered
    CoreProfile Lines;
    Lines.FetchLineBytes = 64;
    const Code &Zero = kernel("zero"); // done when dispatched: only fetch and dispatch pace it
    const Code Compare(kernel("compare_branch").begin() + 1, kernel("compare_branch").end());
    REQUIRE(Compare.size() == 2); // cmp rax, rbx; jne: no chain from one event to the next
    // N events of Body, each reached by a taken jump (64 bytes apart), its instructions
    // at Offset in their line with Sizes; Cut: the body's last instruction is an event
    // of its own, where the one before ended.
    auto cycles = [&](const CoreProfile &P, const Code &Body, uint64_t Offset,
                      const std::vector<uint8_t> &Sizes, unsigned N = 40, bool Cut = false) {
      auto E = requireOk(createEngine(EngineKind::Flow, Triple, Name, false, {}, P));
      auto Core = E->startCore(1);
      std::vector<uint64_t> Addresses(N * Body.size());
      uint64_t Event = 0;
      for (unsigned K = 0; K < N; ++K) {
        llvm::MutableArrayRef<uint64_t> At =
            llvm::MutableArrayRef<uint64_t>(Addresses).slice(K * Body.size(), Body.size());
        for (size_t I = 0; I < Body.size(); ++I)
          At[I] = I ? At[I - 1] + Sizes[I - 1] : K * 64 + Offset;
        size_t First = Cut ? Body.size() - 1 : Body.size();
        RefilledCode Head{0, Event++, llvm::ArrayRef(Body).take_front(First),
                          llvm::ArrayRef<uint64_t>(At).take_front(First), {}, {}};
        Head.Sizes = llvm::ArrayRef(Sizes).take_front(First);
        requireSuccess(Core->add(Head));
        if (Cut) {
          RefilledCode Tail{0, Event++, llvm::ArrayRef(Body).drop_front(First),
                            llvm::ArrayRef<uint64_t>(At).drop_front(First), {}, {}};
          Tail.Sizes = llvm::ArrayRef(Sizes).drop_front(First);
          requireSuccess(Core->add(Tail));
        }
      }
      requireSuccess(Core->finish());
      return Core->cycles();
    };
    const std::vector<uint8_t> Twos(8, 2);

    // Two blocks a cycle: N blocks (one zero idiom each) in (N + 1) / 2 cycles, the
    // first fetched in cycle 1, where one a cycle takes N.
    CoreProfile TwoBlocks = Lines;
    TwoBlocks.FetchBlocksPerCycle = 2;
    for (unsigned N : {1u, 10u, 101u}) {
      CHECK(cycles(Lines, Zero, 0, Twos, N) == N + 1);
      CHECK(cycles(TwoBlocks, Zero, 0, Twos, N) == (N + 1) / 2 + 1);
    }

    // A line's operations: past LineOps of them, two cycles for each further LineOps
    // or part; a conditional jump counts with the compare before it.
    const unsigned N = 40;
    const Code Three = repeat(Zero, 3), Five = repeat(Zero, 5);
    CoreProfile TwoOps = Lines;
    TwoOps.LineOps = 2;
    CHECK(cycles(TwoOps, repeat(Zero, 2), 0, Twos) == cycles(Lines, repeat(Zero, 2), 0, Twos));
    CHECK(cycles(TwoOps, Three, 0, Twos) == 3 * N + 1);
    CHECK(cycles(TwoOps, Five, 0, Twos) == 5 * N + 1);
    const std::vector<uint8_t> CompareSizes = {2, 3, 2};
    CHECK(cycles(TwoOps, Zero + Compare, 0, CompareSizes) ==
          cycles(Lines, Zero + Compare, 0, CompareSizes));
    CoreProfile OneOp = Lines;
    OneOp.LineOps = 1;
    CHECK(cycles(OneOp, Zero + Compare, 0, CompareSizes) ==
          cycles(Lines, Zero + Compare, 0, CompareSizes) + 2 * N);

    // A split jump: the compare at 61, its jne in the next line (a block more), against
    // the compare in the next line with its jne (a block more, no split).
    CoreProfile Split = Lines;
    Split.SplitJumpCycles = 1;
    const uint64_t SplitAt = 59, WholeAt = 62; // where the zero idiom before them starts
    CHECK(cycles(Split, Zero + Compare, WholeAt, CompareSizes) ==
          cycles(Lines, Zero + Compare, WholeAt, CompareSizes));
    CHECK(cycles(Split, Zero + Compare, SplitAt, CompareSizes) ==
          cycles(Lines, Zero + Compare, SplitAt, CompareSizes) + N);
    // The same where the jump is an event of its own, after the compare's.
    CHECK(cycles(Split, Zero + Compare, SplitAt, CompareSizes, N, true) ==
          cycles(Split, Zero + Compare, SplitAt, CompareSizes));
  }
}

TEST_CASE("flow: stack slots are followed through the frame registers' changes", "[replay][flow]") {
  for (const char *Name : Cpus) {
    INFO(Name);
    Cpu &C = cpu(Name);
    const uint64_t Li = C.describe("imul").WriteLatency.at("RAX"),
                   Lr = C.describe("reload").WriteLatency.at("RBX") +
                        FlowSimulator::ForwardingCycles,
                   Lu = C.describe("use").WriteLatency.at("RCX");
    const uint64_t M = 4, Stored = 1 + M * Li;
    // As above: four imuls make rax late, a store of rax issues at Stored, a load into
    // rbx and its use follow. The store and the load name one slot in other words.
    for (const char *Same : {"via_push", "via_sub_add", "via_rbp", "via_lea"}) {
      INFO(Same);
      const Code &Pair = kernel(Same);
      REQUIRE(C.describe(Pair.back()).WriteLatency.at("RBX") + FlowSimulator::ForwardingCycles ==
              Lr);
      CHECK(C.flow(repeat(kernel("imul"), M) + Pair + kernel("use")) == Stored + Lr + Lu + 1);
    }
    // Other slots: the stack pointer moved between, or became a value the engine does
    // not know. The stream ends when the store completes.
    const uint64_t Spill = C.describe("spill").Latency;
    REQUIRE(1 + 2 + Lr + Lu <= Stored + Spill);
    for (const char *Other : {"moved_away", "clobbered"}) {
      INFO(Other);
      CHECK(C.flow(repeat(kernel("imul"), M) + kernel(Other) + kernel("use")) ==
            Stored + Spill + 1);
    }
  }
}

TEST_CASE("flow: stores issue out of order, and loads the frames do not follow wait for older "
          "store addresses",
          "[replay][flow]") {
  for (const char *Name : Cpus) {
    INFO(Name);
    Cpu &C = cpu(Name);
    Described Mul = C.describe("imul"), MulRdx = C.describe("imul_rdx"),
              Spill = C.describe("spill"), Store = C.describe("store_via_rdx"),
              Reload = C.describe("reload"), Load = C.describe("load_via_rdi"),
              Use = C.describe("use");
    for (const Described *D : {&Mul, &MulRdx, &Spill, &Store, &Reload, &Load, &Use})
      REQUIRE_FALSE(D->ReadAdvances);
    const uint64_t Li = Mul.WriteLatency.at("RAX"), Lr = Reload.WriteLatency.at("RBX"),
                   Lu = Use.WriteLatency.at("RCX"), F = FlowSimulator::ForwardingCycles;
    const uint64_t M = 6, Stored = 1 + M * Li;
    // Six imuls make rax late; its spill issues at Stored. A store of rcx to another
    // slot does not wait for it: it issues at once (it dispatches by cycle 2), its
    // reload gets the value a load latency and the forwarding's cycles later, and the
    // add that uses it is done long before the late spill completes, which ends the
    // stream. (In order, the second store would issue at Stored and the add complete
    // at Stored + Lr + F + Lu.)
    REQUIRE(2 + 1 + Lr + F + Lu < Stored + Spill.Latency);
    CHECK(C.flow(repeat(kernel("imul"), M) + kernel("spill") + kernel("spill_other") +
                 kernel("load_elsewhere") + kernel("use")) == Stored + Spill.Latency + 1);
    // Six imuls make rdx late: a store through it has its address at 1 + M * Lm. A load
    // through rdi, an address the engine does not follow, may read what that store
    // writes: it issues once the address is known, then its value comes a load latency
    // later, and the add's completes Lu after. A load of a stack slot (no store wrote
    // it) does not wait: the stream ends when the store completes.
    const uint64_t Lm = MulRdx.WriteLatency.at("RDX"), Addressed = 1 + M * Lm;
    const uint64_t Ll = Load.WriteLatency.at("RBX");
    REQUIRE(Store.Latency < Ll + Lu);
    CHECK(C.flow(repeat(kernel("imul_rdx"), M) + kernel("store_via_rdx") +
                 kernel("load_via_rdi") + kernel("use")) == Addressed + Ll + Lu + 1);
    REQUIRE(2 + 1 + Lr + Lu < Addressed + Store.Latency);
    CHECK(C.flow(repeat(kernel("imul_rdx"), M) + kernel("store_via_rdx") +
                 kernel("load_elsewhere") + kernel("use")) == Addressed + Store.Latency + 1);
    // rbp set to the stack pointer is a frame pointer: a load through it does not wait.
    // Set to anything else (code without frame pointers), it is a register like rdi.
    REQUIRE(C.describe(kernel("rbp_general")[1]).WriteLatency.at("RBX") == Ll);
    CHECK(C.flow(repeat(kernel("imul_rdx"), M) + kernel("store_via_rdx") +
                 kernel("rbp_frame") + kernel("use")) == Addressed + Store.Latency + 1);
    CHECK(C.flow(repeat(kernel("imul_rdx"), M) + kernel("store_via_rdx") +
                 kernel("rbp_general") + kernel("use")) == Addressed + Ll + Lu + 1);
  }
}

/// The cycles of \p Body, one event of trace segment \p Segment, on \p CPU's flow engine
/// with the load dependences \p Loads (of a trace of one segment) and \p Profile.
static uint64_t eventCycles(const char *CPU, const Code &Body, uint32_t Segment,
                            const LoadDependences &Loads, const CoreProfile &Profile = {}) {
  auto E = requireOk(createEngine(EngineKind::Flow, Triple, CPU, false, LoadWaits(Loads, 1),
                                  Profile));
  auto Core = E->startCore(1);
  std::vector<uint64_t> Addresses(Body.size());
  RefilledCode Event{0, 0, Body, Addresses, {}, {}};
  Event.Segment = Segment;
  requireSuccess(Core->add(Event));
  requireSuccess(Core->finish());
  return Core->cycles();
}

/// The stream of the test above: six imuls make rdx late, a store through it, then
/// \p Load (a load through a register the frames do not follow: rdi, or rbp used as any
/// register) and the add that uses what it loaded. Its cycles when the load waits for
/// the store's address (its value a load latency later, the add's Lu after that), and
/// when it goes ahead (the stream ends when the store completes).
struct LateStoreAddress {
  Code Body;
  uint64_t Waits, GoesAhead;
};
static LateStoreAddress lateStoreAddress(Cpu &C, const char *Load = "load_via_rdi") {
  const uint64_t M = 6, Addressed = 1 + M * C.describe("imul_rdx").WriteLatency.at("RDX"),
                 Ll = C.describe("load_via_rdi").WriteLatency.at("RBX"),
                 Lu = C.describe("use").WriteLatency.at("RCX");
  return {repeat(kernel("imul_rdx"), M) + kernel("store_via_rdx") + kernel(Load) +
              kernel("use"),
          Addressed + Ll + Lu + 1, Addressed + C.describe("store_via_rdx").Latency + 1};
}

TEST_CASE("flow: a trace's load dependences decide which data loads wait for older stores",
          "[replay][flow]") {
  for (const char *Name : Cpus) {
    INFO(Name);
    // One event, segment 0: a late store's address, then a load through rdi (the
    // segment's one data load) and its use, as in the test above.
    const LateStoreAddress S = lateStoreAddress(cpu(Name));
    const uint64_t Waits = S.Waits, GoesAhead = S.GoesAhead;
    REQUIRE(GoesAhead < Waits);
    auto cycles = [&](const LoadDependences &Loads, uint32_t Segment) {
      return eventCycles(Name, S.Body, Segment, Loads);
    };
    // Never read what a recent store wrote: it goes ahead of the store.
    CHECK(cycles({{0, {{100, 0}}}}, 0) == GoesAhead);
    CHECK(cycles({{0, {{100, 4}}}}, 0) == GoesAhead); // under 1 in 20
    // Often enough, or never run when recorded: it waits.
    CHECK(cycles({{0, {{100, 5}}}}, 0) == Waits);
    CHECK(cycles({{0, {{0, 0}}}}, 0) == Waits);
    // Without dependences for its code, or with a count of data loads that does not
    // match the segment's, it waits, as without any.
    CHECK(cycles({{0, {{100, 0}}}}, RefilledCode::NoSegment) == Waits);
    CHECK(cycles({{0, {{100, 0}, {100, 0}}}}, 0) == Waits);
    CHECK(cycles({}, 0) == Waits);
  }
}

TEST_CASE("flow: a core that speculates issues loads past unknown store addresses, unless "
          "the trace's load dependences hold them",
          "[replay][flow]") {
  for (const char *Name : Cpus) {
    INFO(Name);
    Cpu &C = cpu(Name);
    CoreProfile Profile;
    Profile.SpeculativeLoads = true;
    for (const char *Load : {"load_via_rdi", "rbp_general"}) {
      INFO(Load);
      const LateStoreAddress S = lateStoreAddress(C, Load);
      REQUIRE(S.GoesAhead < S.Waits);
      CHECK(C.flow(S.Body) == S.Waits);
      auto E = requireOk(createEngine(EngineKind::Flow, Triple, Name, false, {}, Profile));
      CHECK(Cpu::run(*E, S.Body) == S.GoesAhead);
    }
    // With the trace's load dependences, a load that often read a recent store is held
    // (a predictor that saw it alias), one that never did goes ahead.
    const LateStoreAddress S = lateStoreAddress(C);
    CHECK(eventCycles(Name, S.Body, 0, {{0, {{100, 5}}}}, Profile) == S.Waits);
    CHECK(eventCycles(Name, S.Body, 0, {{0, {{100, 0}}}}, Profile) == S.GoesAhead);
  }
}

/// A stream's outcome, gathered without Catch2's macros (which are not thread-safe).
struct Outcome {
  std::string Error;
  uint64_t Cycles = 0, Instructions = 0, Added = 0;
  std::vector<uint64_t> FunctionCycles, FunctionInstructions;
  bool operator==(const Outcome &O) const {
    return Error == O.Error && Cycles == O.Cycles && Instructions == O.Instructions &&
           FunctionCycles == O.FunctionCycles && FunctionInstructions == O.FunctionInstructions;
  }
};

/// Events of \p Bodies in turn, alternating between two functions.
Outcome simulate(Engine &E, const std::vector<Code> &Bodies, uint64_t Events) {
  Outcome O;
  auto Core = E.startCore(2);
  std::vector<uint64_t> Addresses(64);
  for (uint64_t K = 0; K < Events && O.Error.empty(); ++K) {
    const Code &Body = Bodies[K % Bodies.size()];
    if (llvm::Error Err = Core->add({uint32_t(K % 2), K, Body, Addresses, {}, {}}))
      O.Error = llvm::toString(std::move(Err));
    O.Added += Body.size();
  }
  if (llvm::Error Err = Core->finish())
    O.Error = llvm::toString(std::move(Err));
  O.Cycles = Core->cycles();
  O.Instructions = Core->instructions();
  O.FunctionCycles = Core->cyclesByFunction();
  O.FunctionInstructions = Core->instructionsByFunction();
  return O;
}

TEST_CASE("flow: the same stream gives the same cycles, per function adding up", "[replay][flow]") {
  for (const char *Name : Cpus) {
    INFO(Name);
    Cpu &C = cpu(Name);
    // A mix of the kernels above.
    std::vector<Code> Bodies = {kernel("spill_reload"),      kernel("push_pop"),
                                repeat(kernel("divide"), 3), kernel("zeros"),
                                repeat(kernel("add"), 5),    kernel("pop")};
    const uint64_t Events = 3000;
    Outcome First = simulate(*C.Flow, Bodies, Events);
    REQUIRE(First.Error.empty());
    CHECK(First.Instructions == First.Added);
    CHECK(First.FunctionInstructions[0] + First.FunctionInstructions[1] == First.Instructions);
    CHECK(First.FunctionCycles[0] > 0);
    CHECK(First.FunctionCycles[1] > 0);
    CHECK(First.FunctionCycles[0] + First.FunctionCycles[1] == First.Cycles);
    CHECK(simulate(*C.Flow, Bodies, Events) == First);
    // A fresh engine, and two cores of one engine on two threads at once.
    auto Fresh = requireOk(createEngine(EngineKind::Flow, Triple, Name, false));
    CHECK(simulate(*Fresh, Bodies, Events) == First);
    Outcome Threaded[2];
    std::thread Other([&] { Threaded[1] = simulate(*Fresh, Bodies, Events); });
    Threaded[0] = simulate(*Fresh, Bodies, Events);
    Other.join();
    CHECK(Threaded[0] == First);
    CHECK(Threaded[1] == First);
  }
}

TEST_CASE("flow: code is found by its segment, also after another variant's code there",
          "[replay][flow]") {
  for (const char *Name : Cpus) {
    INFO(Name);
    Cpu &C = cpu(Name);
    uint64_t Multiply = C.describe("imul").WriteLatency.at("RAX");
    uint64_t Add = C.describe("add").WriteLatency.at("RAX");
    REQUIRE(Multiply != Add);
    // One trace segment run by two variants' code on one core, as fast replay may hand a
    // core the reference's code and the variant's: events alternate between 8 adds
    // and 8 multiplies, all one chain through rax.
    Code Adds = repeat(kernel("add"), 8), Multiplies = repeat(kernel("imul"), 8);
    std::vector<uint64_t> Addresses(8);
    for (uint32_t Segment : {RefilledCode::NoSegment, 0u, 7u}) {
      INFO(Segment);
      auto Core = C.Flow->startCore(1);
      for (unsigned K = 0; K < 6; ++K) {
        RefilledCode Event{0, K, K % 2 ? Multiplies : Adds, Addresses, {}, {}};
        Event.Segment = Segment;
        requireSuccess(Core->add(Event));
      }
      requireSuccess(Core->finish());
      // 24 adds and 24 multiplies, each waiting for the one before.
      CHECK(Core->cycles() == 1 + 24 * Add + 24 * Multiply + 1);
    }
  }
}

TEST_CASE("flow: a mispredicted branch holds dispatch until it resolves, plus the penalty",
          "[replay][flow]") {
  for (const char *Name : Cpus) {
    INFO(Name);
    Cpu &C = cpu(Name);
    // An event multiplies rax (a chain across events), compares it and branches; the
    // next one is a zero idiom (done when dispatched).
    const Code &Branch = kernel("compare_branch");
    REQUIRE(Branch.size() == 3);
    Described Multiply = C.describe(Branch[0]), Compare = C.describe(Branch[1]),
              Jump = C.describe(Branch[2]);
    REQUIRE_FALSE((Compare.ReadAdvances || Jump.ReadAdvances));
    REQUIRE(C.describe("zero").ZeroLatency);
    const uint64_t L = Multiply.WriteLatency.at("RAX"), Lc = Compare.WriteLatency.at("EFLAGS");
    const uint64_t Lj = Jump.Latency, Penalty = C.model().MispredictPenalty;
    REQUIRE(Penalty > 0);
    std::vector<uint64_t> Addresses(3);
    // Twice: the branch, then the zero idiom, mispredicted or not; \p Gap leaves an event
    // out before the second zero idiom.
    auto run = [&](bool Mispredicted, bool Gap = false) {
      auto Core = C.Flow->startCore(1);
      uint64_t Event = 0;
      for (int K = 0; K < 2; ++K) {
        requireSuccess(Core->add({0, Event++, Branch, Addresses, {}, {}}));
        RefilledCode Then{0, Event++, kernel("zero"), llvm::ArrayRef(Addresses).take_front(1),
                          {}, {}};
        Then.Event += K && Gap;
        Then.Mispredicted = K && Mispredicted;
        requireSuccess(Core->add(Then));
      }
      requireSuccess(Core->finish());
      return std::pair(Core->cycles(), static_cast<FlowSimulator &>(*Core).mispredictions());
    };
    // Predicted: the second jne resolves at 1 + 2L + Lc + Lj (two multiplies, the
    // compare, the jump), and the last zero idiom retires with it.
    const uint64_t Resolved = 1 + 2 * L + Lc + Lj;
    CHECK(run(false) == std::pair(Resolved + 1, uint64_t(0)));
    // Mispredicted: the zero idiom dispatches Penalty cycles after the jump resolved.
    CHECK(run(true) == std::pair(Resolved + Penalty + 1, uint64_t(1)));
    // After code left out, the branch that was mispredicted is not the one the core saw.
    CHECK(run(true, true) == std::pair(Resolved + 1, uint64_t(0)));
  }
}
