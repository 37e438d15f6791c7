// Fast replay's register pairing: code that differs only by register names needs no
// simulation when every read reads the reference's value, and MCA indeed gives it the
// same cycles; a read of another value is a difference.
#include "Assemble.h"
#include "TestSupport.h"
#include "replay/fast/SpanPlan.h"
#include "replay/mca/McaSimulator.h"

using namespace mlgo;
using namespace mlgo::test;

namespace {

// A loop body carrying its value in rdi, three ways: as the reference runs it, renamed
// consistently (rax, rcx, rdx as r8, r9, r10), and renamed with one read of another value
// (the add reads last iteration's shift instead of this one's lea).
const char *const LoopBodies = R"(
  .section .text.reference,"ax",@progbits
  movq %rdi, %rax
  imulq %rax, %rax
  leaq 1(%rax), %rcx
  addq %rcx, %rax
  movq %rax, %rdx
  shrq $3, %rdx
  xorq %rdx, %rax
  movq %rax, %rdi
  .section .text.renamed,"ax",@progbits
  movq %rdi, %r8
  imulq %r8, %r8
  leaq 1(%r8), %r9
  addq %r9, %r8
  movq %r8, %r10
  shrq $3, %r10
  xorq %r10, %r8
  movq %r8, %rdi
  .section .text.misread,"ax",@progbits
  movq %rdi, %r8
  imulq %r8, %r8
  leaq 1(%r8), %r9
  addq %r10, %r8
  movq %r8, %r10
  shrq $3, %r10
  xorq %r10, %r8
  movq %r8, %rdi
  .section .text.wide,"ax",@progbits
  movl %esi, %eax
  addl $1, %eax
  movl %eax, %edi
  .section .text.wide_renamed,"ax",@progbits
  movl %esi, %r11d
  addl $1, %r11d
  movl %r11d, %edi
  .section .text.merged,"ax",@progbits
  movq %rsi, %rax
  movb $1, %al
  movq %rax, %rdi
  .section .text.merged_renamed,"ax",@progbits
  movq %rsi, %rax
  movb $1, %r11b
  movq %r11, %rdi
)";

struct Fixture {
  std::unique_ptr<McaTarget> Target;
  std::map<std::string, std::vector<llvm::MCInst>> Code;
  std::vector<uint64_t> Addresses = std::vector<uint64_t>(8);

  Fixture() {
    initializeTargets();
    Target = requireOk(McaTarget::create("x86_64-unknown-linux-gnu", "znver4"));
    Code = assemble(LoopBodies);
  }

  /// The spans fast replay plans for \p Events events of \p Variant against the same
  /// number of \p Reference.
  std::vector<Span> plan(const std::string &Variant, const std::string &Reference,
                         uint64_t Events = 1000) {
    SpanPlanner Planner(SpanSettings{}, *Target);
    for (uint64_t E = 0; E < Events; ++E)
      requireSuccess(Planner.onCode(0, {0, E, Code.at(Variant), Addresses,
                                        Code.at(Reference), Addresses}));
    Planner.finish();
    return Planner.takeSpans();
  }

  /// MCA's cycles for \p Events events of \p Name.
  uint64_t simulate(const std::string &Name, uint64_t Events = 1000) {
    McaInstructionBuilder Builder(*Target);
    McaSimulator Sim(*Target, Builder, 1);
    for (uint64_t E = 0; E < Events; ++E)
      requireSuccess(Sim.add({0, E, Code.at(Name), Addresses, {}, {}}));
    requireSuccess(Sim.finish());
    return Sim.cycles();
  }
};

} // namespace

TEST_CASE("code renamed consistently needs no simulation, and MCA agrees", "[replay]") {
  Fixture F;
  REQUIRE(F.Code.at("reference").size() == 8);
  SameTiming Same(F.Target->instrInfo(), F.Target->registerInfo().getProgramCounter());
  CHECK(Same(F.Code.at("renamed"), F.Code.at("reference")) == CodeMatch::Renamed);

  CHECK(F.plan("renamed", "reference").empty());
  CHECK(F.simulate("renamed") == F.simulate("reference"));

  SECTION("a 32-bit write starts a value, so it can pair new registers") {
    CHECK(F.plan("wide_renamed", "wide").empty());
    CHECK(F.simulate("wide_renamed") == F.simulate("wide"));
  }
}

TEST_CASE("a renamed read of another value is a difference", "[replay]") {
  Fixture F;
  SECTION("a recent value") {
    std::vector<Span> Spans = F.plan("misread", "reference");
    REQUIRE(Spans.size() == 1);
    // Every event reads the other value: one span, from the first event to the last.
    CHECK(Spans[0].Ordinals.size() == 1000);
    CHECK(Spans[0].WarmUp == 0);
    // And MCA times it otherwise: the add no longer waits for the lea.
    CHECK(F.simulate("misread") < F.simulate("reference"));
  }
  SECTION("a byte write merges with its register's older value") {
    std::vector<Span> Spans = F.plan("merged_renamed", "merged");
    CHECK(!Spans.empty());
  }
}

TEST_CASE("the stack engine lets pushes and pops run without chaining", "[replay]") {
  initializeTargets();
  auto Code = assemble(R"(
  .section .text.saves,"ax",@progbits
  pushq %rbx
  pushq %rbp
  pushq %r12
  pushq %r13
  popq %r13
  popq %r12
  popq %rbp
  popq %rbx
)");
  std::vector<uint64_t> Addresses(8);
  auto cycles = [&](bool StackEngine) {
    auto Target =
        requireOk(McaTarget::create("x86_64-unknown-linux-gnu", "znver4", StackEngine));
    McaInstructionBuilder Builder(*Target);
    McaSimulator Sim(*Target, Builder, 1);
    for (uint64_t E = 0; E < 1000; ++E)
      requireSuccess(Sim.add({0, E, Code.at("saves"), Addresses, {}, {}}));
    requireSuccess(Sim.finish());
    return Sim.cycles();
  };
  uint64_t Chained = cycles(false), Engine = cycles(true);
  INFO("without " << Chained << ", with " << Engine);
  // Without it every push and pop waits for the one before: a cycle each at least.
  CHECK(Chained >= 8000);
  CHECK(Engine < Chained);
}
