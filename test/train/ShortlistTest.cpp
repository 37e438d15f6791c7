// The shortlist keeps the best distinct policies a run evaluated, best first, the first
// evaluated among equal speedups, and reads back exactly what it wrote; a malformed one
// in a checkpoint is refused with what is wrong with it.
#include "Shortlist.h"
#include "TestSupport.h"

using namespace mlgo;
using namespace mlgo::test;

namespace {

/// Offers \p Speedup with parameters {Tag}; counts how often parameters were made.
bool offer(Shortlist &S, double Speedup, uint64_t Step, float Tag, int &Made) {
  return S.offer(Speedup, Step, [&] {
    ++Made;
    return std::vector<float>{Tag};
  });
}

std::vector<double> speedups(const Shortlist &S) {
  std::vector<double> V;
  for (const ShortlistEntry &E : S.entries())
    V.push_back(E.Speedup);
  return V;
}

} // namespace

TEST_CASE("the shortlist keeps the best distinct speedups, best first", "[train]") {
  Shortlist S(3);
  int Made = 0;
  CHECK(offer(S, 0.001, 0, 1, Made));
  CHECK(offer(S, 0.004, 0, 2, Made));
  CHECK_FALSE(offer(S, 0.004, 1, 3, Made)); // the same speedup: the earlier one stays
  CHECK(offer(S, -0.002, 1, 4, Made));
  CHECK(speedups(S) == std::vector<double>{0.004, 0.001, -0.002});
  CHECK_FALSE(offer(S, -0.003, 2, 5, Made)); // full, and below every entry
  CHECK(offer(S, 0.002, 2, 6, Made));        // pushes the last one out
  CHECK(speedups(S) == std::vector<double>{0.004, 0.002, 0.001});
  CHECK(Made == 4); // parameters made only for the policies kept
  CHECK(S.entries()[0].Parameters == std::vector<float>{2});
  CHECK(S.entries()[1].Step == 2);
  CHECK(S.entries()[1].Parameters == std::vector<float>{6});

  Shortlist None(0);
  CHECK_FALSE(offer(None, 0.5, 0, 1, Made));
  CHECK(None.entries().empty());
}

TEST_CASE("a shortlist is read back exactly as written", "[train]") {
  Shortlist S(4);
  int Made = 0;
  offer(S, 0.0123456789012345, 7, 0.1f, Made);
  offer(S, -1e-17, 9, -3.5f, Made);
  Json Written = S.toJSON();
  Shortlist Read = requireOk(Shortlist::fromJSON(Written, 4, 1, "c.json"));
  CHECK(Read.toJSON() == Written);
  CHECK(speedups(Read) == speedups(S));
  // A smaller capacity keeps the best entries.
  CHECK(speedups(requireOk(Shortlist::fromJSON(Written, 1, 1, "c.json"))) ==
        std::vector<double>{0.0123456789012345});
}

TEST_CASE("a malformed shortlist is refused with what is wrong", "[train]") {
  auto Refused = [](const char *Text, size_t Size = 1) {
    return requireError(Shortlist::fromJSON(Json::parse(Text), 4, Size, "c.json"));
  };
  CHECK(Refused(R"({"speedup": 1})") == "c.json: its shortlist is not a list");
  CHECK(Refused(R"([{"step": 1, "parameters": [1]}])") == "c.json: missing field 'speedup'");
  CHECK(Refused(R"([{"speedup": 0.1, "step": -1, "parameters": [1]}])")
            .rfind("c.json: field 'step'", 0) == 0);
  CHECK(Refused(R"([{"speedup": 0.1, "step": 1, "parameters": [1, 2]}])") ==
        "c.json: a shortlisted policy holds 2 parameters; the policy has 1");
  CHECK(Refused(R"([{"speedup": 0.1, "step": 1, "parameters": [1]},
                    {"speedup": 0.1, "step": 2, "parameters": [2]}])") ==
        "c.json: its shortlist is not in order of decreasing speedup");
}
