// Fast replay's spans: where a variant's code differs from its reference's, with the
// warm-up before and the settling events after, merged when close.
#include "SpanTesting.h"
#include "replay/fast/Sampling.h"

#include <set>

using namespace mlgo;
using namespace mlgo::test;

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
  // Windows of 10 events in every period of 20 events, each at its own place.
  SpanSettings Settings{/*WarmUp=*/16, /*Settle=*/16, /*SampleEvery=*/20,
                        /*SampleLength=*/10};
  CHECK(Settings.sampleWeight() == 2);
  auto windowStart = [&](uint64_t Period) {
    uint64_t Start = Period * 20;
    while (!Settings.inWindow(Start))
      ++Start;
    return Start;
  };
  // Events of 4 instructions: a warm-up and a settling are 4 events each.
  const uint64_t W0 = windowStart(0), W1 = windowStart(1);
  REQUIRE(W0 + 10 + 5 <= W1);
  Events E;
  auto from = [](uint64_t First, uint64_t Last) {
    std::vector<uint64_t> Ordinals;
    for (uint64_t O = First; O <= Last; ++O)
      Ordinals.push_back(O);
    return Ordinals;
  };

  SECTION("each period has one window of its length, not in the same place in all") {
    std::set<uint64_t> Starts;
    for (uint64_t Period = 0; Period < 64; ++Period) {
      unsigned In = 0;
      for (uint64_t Event = Period * 20; Event < Period * 20 + 20; ++Event)
        In += Settings.inWindow(Event);
      CHECK(In == 10);
      Starts.insert(windowStart(Period) - Period * 20);
    }
    CHECK(Starts.size() > 1);
  }
  SECTION("a difference outside the windows is not simulated") {
    SpanPlanner Planner = P.planner(Settings);
    uint64_t Outside = W0 + 10;
    CHECK(E.plan(Planner, 100, [&](uint64_t N) { return N == Outside; }).empty());
  }
  SECTION("a span counts until its window ends, then runs on a settling uncounted") {
    SpanPlanner Planner = P.planner(Settings);
    uint64_t Late = W0 + 8;
    std::vector<Span> Spans = E.plan(Planner, 100, [&](uint64_t N) { return N == Late; });
    REQUIRE(Spans.size() == 1);
    CHECK(Spans[0].Ordinals == from(Late - 4, W0 + 10 + 3));
    CHECK(Spans[0].WarmUp == 4);
    CHECK(Spans[0].Counted == 6); // the window's last two events
    CHECK(Spans[0].Instructions == 40);
  }
  SECTION("a settled span counts to its end") {
    SpanPlanner Planner = P.planner(Settings);
    uint64_t Early = W0 + 2;
    std::vector<Span> Spans = E.plan(Planner, 100, [&](uint64_t N) { return N == Early; });
    REQUIRE(Spans.size() == 1);
    CHECK(Spans[0].Ordinals == from(Early >= 4 ? Early - 4 : 0, Early + 4));
    CHECK(Spans[0].Counted == Spans[0].Ordinals.size());
  }
  SECTION("the windows the trace reached, per thread") {
    SpanPlanner Planner = P.planner(Settings);
    E.plan(Planner, 41, [](uint64_t) { return false; });
    CHECK(Planner.windows() == std::map<uint32_t, uint64_t>{{0, 3}});
  }
  SECTION("a window that starts before a difference settled starts a span") {
    SpanPlanner Planner = P.planner(Settings);
    std::vector<Span> Spans = E.plan(Planner, 100, [&](uint64_t N) { return N == W1 - 1; });
    REQUIRE(Spans.size() == 1);
    CHECK(Spans[0].WarmUp == 4);
    CHECK(Spans[0].Ordinals == from(W1 - 4, W1 + 3));
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
