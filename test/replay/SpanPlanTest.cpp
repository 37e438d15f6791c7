// Fast replay's spans: where a variant's code differs from its reference's, with the
// warm-up before and the settling events after, merged when close.
#include "McaSimulator.h"
#include "Sampling.h"
#include "SpanPlan.h"
#include "TestSupport.h"

#include "llvm/MC/MCInstBuilder.h"
#include <functional>

using namespace mlgo;
using namespace mlgo::test;

namespace {

/// Events of 4 instructions each, numbered 0, 1, ...: same code in variant and
/// reference except at the events given.
struct Events {
  std::vector<llvm::MCInst> Same, Other;
  std::vector<uint64_t> Addresses = std::vector<uint64_t>(4);

  Events() {
    for (unsigned I = 0; I < 4; ++I) {
      Same.push_back(llvm::MCInstBuilder(1));
      Other.push_back(llvm::MCInstBuilder(2));
    }
  }
  /// Plans \p Count events, event E differing when Differs(E).
  std::vector<Span> plan(SpanPlanner &Planner, uint64_t Count,
                         std::function<bool(uint64_t)> Differs) {
    for (uint64_t E = 0; E < Count; ++E)
      requireSuccess(Planner.onCode(
          0, {7, E, Differs(E) ? llvm::ArrayRef(Other) : llvm::ArrayRef(Same), Addresses,
              Same, Addresses}));
    Planner.finish();
    return Planner.takeSpans();
  }
};

/// What a SpanPlanner needs: a target (skylake).
struct Planning {
  std::unique_ptr<McaTarget> Target;

  Planning() {
    initializeTargets();
    Target = requireOk(McaTarget::create("x86_64-unknown-linux-gnu", "skylake"));
  }
  SpanPlanner planner(const SpanSettings &Settings) { return SpanPlanner(Settings, *Target); }
};

} // namespace

TEST_CASE("spans cover differing code with its warm-up and settling", "[replay]") {
  Planning P;
  SpanSettings Settings{/*WarmUp=*/16, /*Settle=*/16};
  Events E;

  SECTION("the same code everywhere: nothing to simulate") {
    SpanPlanner Planner = P.planner(Settings);
    CHECK(E.plan(Planner, 100, [](uint64_t) { return false; }).empty());
  }
  SECTION("one difference: 4 events of warm-up, it, 4 events to settle") {
    SpanPlanner Planner = P.planner(Settings);
    std::vector<Span> Spans = E.plan(Planner, 100, [](uint64_t N) { return N == 50; });
    REQUIRE(Spans.size() == 1);
    CHECK(Spans[0].WarmUp == 4);
    CHECK(Spans[0].Ordinals == std::vector<uint64_t>{46, 47, 48, 49, 50, 51, 52, 53, 54});
    CHECK(Spans[0].Instructions == 36);
    // The differing event runs the variant's code, the others code both share.
    CHECK(Spans[0].Events[4].first != Spans[0].Events[4].second);
    CHECK(Spans[0].Events[3].first == Spans[0].Events[3].second);
  }
  SECTION("a difference before the last one has settled extends its span") {
    SpanPlanner Planner = P.planner(Settings);
    std::vector<Span> Spans =
        E.plan(Planner, 100, [](uint64_t N) { return N == 20 || N == 23 || N == 60; });
    REQUIRE(Spans.size() == 2);
    CHECK(Spans[0].Ordinals.front() == 16);
    CHECK(Spans[0].Ordinals.back() == 27);
    CHECK(Spans[1].Ordinals.front() == 56);
    CHECK(Spans[1].Ordinals.back() == 64);
  }
  SECTION("one after it has settled starts a span that warms up on the settling") {
    SpanPlanner Planner = P.planner(Settings);
    std::vector<Span> Spans =
        E.plan(Planner, 100, [](uint64_t N) { return N == 20 || N == 25; });
    REQUIRE(Spans.size() == 2);
    CHECK(Spans[0].Ordinals.back() == 24);
    CHECK(Spans[1].WarmUp == 4);
    CHECK(Spans[1].Ordinals.front() == 21);
  }
  SECTION("a difference at the start has no warm-up; one at the end, no settling") {
    SpanPlanner Planner = P.planner(Settings);
    std::vector<Span> Spans =
        E.plan(Planner, 10, [](uint64_t N) { return N == 0 || N == 9; });
    REQUIRE(Spans.size() == 2);
    CHECK(Spans[0].WarmUp == 0);
    CHECK(Spans[1].Ordinals.back() == 9);
  }
}

TEST_CASE("sampled spans count only in their windows", "[replay]") {
  Planning P;
  // Windows of 10 events every 20: events 0-9, 20-29, ...
  SpanSettings Settings{/*WarmUp=*/16, /*Settle=*/16, /*SampleEvery=*/20,
                        /*SampleLength=*/10};
  CHECK(Settings.sampleWeight() == 2);
  Events E;

  SECTION("a difference outside the windows is not simulated") {
    SpanPlanner Planner = P.planner(Settings);
    CHECK(E.plan(Planner, 100, [](uint64_t N) { return N == 15; }).empty());
  }
  SECTION("a span counts until its window ends, then runs on a settling uncounted") {
    SpanPlanner Planner = P.planner(Settings);
    std::vector<Span> Spans = E.plan(Planner, 100, [](uint64_t N) { return N == 8; });
    REQUIRE(Spans.size() == 1);
    CHECK(Spans[0].Ordinals == std::vector<uint64_t>{4, 5, 6, 7, 8, 9, 10, 11, 12, 13});
    CHECK(Spans[0].WarmUp == 4);
    CHECK(Spans[0].Counted == 6); // events 8 and 9
    CHECK(Spans[0].Instructions == 40);
  }
  SECTION("a settled span counts to its end") {
    SpanPlanner Planner = P.planner(Settings);
    std::vector<Span> Spans = E.plan(Planner, 100, [](uint64_t N) { return N == 2; });
    REQUIRE(Spans.size() == 1);
    CHECK(Spans[0].Ordinals == std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 6});
    CHECK(Spans[0].Counted == 7);
  }
  SECTION("the windows the trace reached, per thread") {
    SpanPlanner Planner = P.planner(Settings);
    E.plan(Planner, 41, [](uint64_t) { return false; });
    CHECK(Planner.windows() == std::map<uint32_t, uint64_t>{{0, 3}});
  }
  SECTION("a window that starts before a difference settled starts a span") {
    SpanPlanner Planner = P.planner(Settings);
    std::vector<Span> Spans = E.plan(Planner, 100, [](uint64_t N) { return N == 19; });
    REQUIRE(Spans.size() == 1);
    CHECK(Spans[0].WarmUp == 4);
    CHECK(Spans[0].Ordinals == std::vector<uint64_t>{16, 17, 18, 19, 20, 21, 22, 23});
  }
  SECTION("parsed from --sample") {
    SpanSettings Parsed;
    requireSuccess(parseSampling("4096/65536", "--sample", Parsed));
    CHECK(Parsed.SampleLength == 4096);
    CHECK(Parsed.SampleEvery == 65536);
    CHECK(samplingName(Parsed) == "4096/65536");
    for (const char *Bad : {"4096", "0/10", "11/10", "a/b", "1/"})
      CHECK(requireError(parseSampling(Bad, "--sample", Parsed)).find("--sample: ") == 0);
  }
}

TEST_CASE("code is the same to MCA whatever its branch targets", "[replay]") {
  initializeTargets();
  auto Target = requireOk(McaTarget::create("x86_64-unknown-linux-gnu", "skylake"));
  const llvm::MCInstrInfo &Info = Target->instrInfo();
  SameTiming Same(Info, Target->registerInfo().getProgramCounter());
  // Any call opcode: its target operand is an immediate that only locates code.
  unsigned Call = 0;
  for (unsigned Op = 0; Op < Info.getNumOpcodes() && !Call; ++Op)
    if (Info.get(Op).isCall() && Info.get(Op).getNumOperands() == 1 &&
        Info.get(Op).operands()[0].OperandType == llvm::MCOI::OPERAND_PCREL)
      Call = Op;
  REQUIRE(Call != 0);
  std::vector<llvm::MCInst> A{llvm::MCInstBuilder(Call).addImm(16)};
  std::vector<llvm::MCInst> B{llvm::MCInstBuilder(Call).addImm(4096)};
  CHECK(Same(A, B) == CodeMatch::Same);
  // Other immediates count.
  std::vector<llvm::MCInst> C{llvm::MCInstBuilder(1).addImm(16)};
  std::vector<llvm::MCInst> D{llvm::MCInstBuilder(1).addImm(17)};
  CHECK(Same(C, D) == CodeMatch::Different);
  CHECK(Same(A, C) == CodeMatch::Different);
}
