/// \file
/// accuracy-perturb: writes a random perturbation of a policy, theta + sigma * epsilon
/// with epsilon standard normal per parameter (as Evolution Strategies perturbs it),
/// drawn from --seed alone, so every machine writes the same policy.
///
/// Usage: accuracy-perturb POLICY --sigma S --seed N -o OUT.json
/// POLICY is a built-in network policy (initial, poor) or a policy file.
#include "policy/Policy.h"

#include "llvm/Support/Error.h"
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

[[noreturn]] void fail(const std::string &Message) {
  std::fprintf(stderr, "accuracy-perturb: error: %s\n", Message.c_str());
  std::exit(1);
}

uint64_t splitMix64(uint64_t &State) {
  uint64_t Z = (State += 0x9E3779B97F4A7C15ULL);
  Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBULL;
  return Z ^ (Z >> 31);
}

/// A standard normal value (Box-Muller over two uniforms in (0, 1]).
double normal(uint64_t &State) {
  double U1 = (double(splitMix64(State) >> 11) + 1) / 9007199254740992.0;
  double U2 = double(splitMix64(State) >> 11) / 9007199254740992.0;
  return std::sqrt(-2 * std::log(U1)) * std::cos(6.283185307179586 * U2);
}

} // namespace

int main(int Argc, char **Argv) {
  std::string Input, Output;
  double Sigma = -1;
  uint64_t Seed = 0;
  bool HaveSeed = false;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Value = [&]() -> std::string {
      if (I + 1 >= Argc)
        fail(A + " needs a value");
      return Argv[++I];
    };
    if (A == "--sigma")
      Sigma = std::atof(Value().c_str());
    else if (A == "--seed")
      Seed = std::strtoull(Value().c_str(), nullptr, 10), HaveSeed = true;
    else if (A == "-o")
      Output = Value();
    else if (Input.empty() && !A.empty() && A[0] != '-')
      Input = A;
    else
      fail("unexpected argument '" + A + "' (usage: accuracy-perturb POLICY --sigma S "
           "--seed N -o OUT.json)");
  }
  if (Input.empty() || Output.empty() || Sigma < 0 || !HaveSeed)
    fail("usage: accuracy-perturb POLICY --sigma S --seed N -o OUT.json");

  llvm::Expected<mlgo::Policy> P = mlgo::loadPolicy(Input);
  if (!P)
    fail(llvm::toString(P.takeError()));
  if (!P->usesAdvisor())
    fail(Input + ": a default policy has no parameters to perturb");
  uint64_t State = Seed;
  for (float &Parameter : P->parameters())
    Parameter += float(Sigma * normal(State));
  char Name[96];
  std::snprintf(Name, sizeof Name, "%s+%gN(seed %llu)", P->name().c_str(), Sigma,
                (unsigned long long)Seed);
  P->setName(Name);
  if (llvm::Error E = mlgo::savePolicy(*P, Output))
    fail(llvm::toString(std::move(E)));
  return 0;
}
