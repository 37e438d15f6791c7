// measure's arithmetic and parsing: a round's speedups over the neighbouring baseline
// calls and then over the control, a result's verdict from its interval, link commands
// and build names.
#include "LinkCommand.h"
#include "Units.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace mlgo;

TEST_CASE("a round's speedups: over the baseline beside, then over the control", "[measure]") {
  // B C B V B: the baseline drifts from 1.0 to 1.21 s; the control takes 1.1 s, between
  // baselines of 1.0 and 1.21 (geometric mean 1.1): 0%. The candidate 0.55 s between 1.21
  // and 1.21: 2.2x the baseline, and over the control (1 + 1.2) / (1 + 0) - 1 = 1.2.
  std::vector<Timed> Round = {{0, 1.0}, {1, 1.1}, {0, 1.21}, {2, 0.55}, {0, 1.21}};
  std::vector<double> S = roundSpeedups(Round, 3);
  CHECK(std::isnan(S[0]));
  CHECK(S[1] == Approx(0.0).margin(1e-12));
  CHECK(S[2] == Approx(1.2));
  // A control 10% faster than the baseline around it makes the same candidate's speedup
  // over the control 2.2 / 1.1 - 1 = 1.
  Round[1].Value = 1.0;
  S = roundSpeedups(Round, 3);
  CHECK(S[1] == Approx(0.1));
  CHECK(S[2] == Approx(1.0));
}

TEST_CASE("a round without its baseline calls gives no speedup", "[measure]") {
  std::vector<double> S = roundSpeedups({{0, 1.0}, {1, 1.0}}, 3);
  CHECK(std::isnan(S[1]));
  CHECK(std::isnan(S[2]));
}

TEST_CASE("the verdict follows the interval of the median", "[measure]") {
  Contestant C{"v", "/v", true};
  std::vector<double> Faster(20, 0.01), Mixed;
  for (int I = 0; I < 20; ++I)
    Mixed.push_back(I % 2 ? 0.01 : -0.01);
  BuildResult F = summarise(C, Faster, false);
  CHECK(F.Speedup == Approx(0.01));
  CHECK(F.Low == Approx(0.01));
  CHECK(F.Samples == 20);
  CHECK(F.Judged == Verdict::Faster);
  CHECK(summarise(C, Mixed, false).Judged == Verdict::WithinNoise);
  std::vector<double> Slower(20, -0.02);
  CHECK(std::string(verdictName(summarise(C, Slower, true).Judged)) == "slower");
  CHECK(summarise(C, {}, false).Samples == 0);
}

TEST_CASE("a link command: its objects and output, replaced in place", "[measure]") {
  auto Link = parseLinkCommand(": && clang-22 -O2 a.o 'dir with space/b.o' lib.a -o app -lm && :");
  REQUIRE(static_cast<bool>(Link));
  CHECK(Link->objects() == std::vector<std::string>{"a.o", "dir with space/b.o", "lib.a"});
  CHECK(Link->with({"/x/1.o", "/x/2.o"}, "/out") ==
        std::vector<std::string>{"clang-22", "-O2", "/x/1.o", "/x/2.o", "-o", "/out", "-lm"});
}

TEST_CASE("a link command that is no single invocation is refused", "[measure]") {
  for (const char *Bad : {"", "clang a.o && strip app -o app", "clang -o app", "clang a.o"}) {
    auto Link = parseLinkCommand(Bad);
    CHECK_FALSE(static_cast<bool>(Link));
    llvm::consumeError(Link.takeError());
  }
}

TEST_CASE("a build is NAME=PATH or a path named by its last component", "[measure]") {
  BuildSpec Named = parseBuildSpec("fast=out/v1");
  CHECK(Named.Name == "fast");
  CHECK(Named.Path == "out/v1");
  BuildSpec Plain = parseBuildSpec("out/v1/");
  CHECK(Plain.Name == "v1");
  CHECK(Plain.Path == "out/v1/");
  CHECK(parseBuildSpec("dir/a=b").Name == "a=b"); // a path with '=' stays a path
}
