// Cycles per instruction (replay --explain): a core's retirements attributed to the
// instructions it was given, in order, on both engines. Per function, the
// instructions' cycles add up to the function's and their executions to its
// instructions; a profile that is not asked for costs the core nothing.
#include "Assemble.h"
#include "TestSupport.h"
#include "detail/EngineFactory.h"
#include "replay/engine/InstructionProfile.h"

using namespace mlgo;
using namespace mlgo::test;

namespace {

const char *const Kernels = R"(
  .section .text.spill_reload,"ax",@progbits
  imulq %rax, %rax
  movq %rax, 8(%rsp)
  movq 8(%rsp), %rbx
  addq %rbx, %rcx
  .section .text.divide,"ax",@progbits
  vdivsd %xmm8, %xmm9, %xmm0
  vdivsd %xmm0, %xmm9, %xmm8
  addq %rax, %rdx
)";

} // namespace

TEST_CASE("a core's cycles are attributed instruction by instruction", "[replay]") {
  initializeTargets();
  auto Code = assemble(Kernels);
  const std::vector<llvm::MCInst> &Spill = Code.at("spill_reload"), &Divide = Code.at("divide");
  // Addresses as a variant's image gives them: per function, one per instruction.
  std::vector<uint64_t> SpillAt = {0x100, 0x104, 0x109, 0x10e}, DivideAt = {0x200, 0x205, 0x20a};
  const uint64_t Rounds = 5000; // more than MCA's batches: retirements lag behind adds
  for (EngineKind Kind : {EngineKind::Flow, EngineKind::Mca}) {
    INFO(engineName(Kind));
    auto Cores = requireOk(createEngine(Kind, "x86_64-unknown-linux-gnu", "skylake", false));
    auto Core = Cores->startCore(2);
    InstructionAttribution Attribution(*Core, 2);
    for (uint64_t K = 0; K < Rounds; ++K) {
      RefilledCode Event = K % 2 ? RefilledCode{1, K, Divide, DivideAt, {}, {}}
                                 : RefilledCode{0, K, Spill, SpillAt, {}, {}};
      requireSuccess(Core->add(Event));
      Attribution.added(Event);
    }
    requireSuccess(Core->finish());
    Attribution.finished();
    InstructionProfile Profile = Attribution.profile();
    REQUIRE(Profile.size() == 2);
    uint64_t Total = 0;
    for (uint32_t F = 0; F < 2; ++F) {
      const std::vector<uint64_t> &At = F ? DivideAt : SpillAt;
      REQUIRE(Profile[F].size() == At.size());
      uint64_t Cycles = 0, Executions = 0;
      for (uint64_t Address : At) {
        CHECK(Profile[F].lookup(Address).Executions == Rounds / 2);
        Cycles += Profile[F].lookup(Address).Cycles;
        Executions += Profile[F].lookup(Address).Executions;
      }
      CHECK(Cycles == Core->cyclesByFunction()[F]);
      CHECK(Executions == Core->instructionsByFunction()[F]);
      Total += Cycles;
    }
    CHECK(Total == Core->cycles());
    // The dividers bound the stream: the second division, which waits for the first,
    // is where the cycles go.
    // A chain of divisions bounds the stream: its cycles go to the divisions.
    uint64_t Divisions = Profile[1].lookup(0x200).Cycles + Profile[1].lookup(0x205).Cycles;
    CHECK(Divisions * 100 >= Total * 99);

    // Profiles of two threads add up.
    InstructionProfile Twice = Profile;
    mergeProfile(Twice, Profile);
    CHECK(Twice[1].lookup(0x205).Cycles == 2 * Profile[1].lookup(0x205).Cycles);
    CHECK(Twice[0].lookup(0x104).Executions == Rounds);
  }
}
