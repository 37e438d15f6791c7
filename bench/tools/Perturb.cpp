/// \file
/// accuracy-perturb: writes a random perturbation of a policy, theta + sigma * epsilon,
/// where epsilon is the first direction train draws at step 0 with seed --seed
/// (perturbationDirection): a standard normal value per parameter, derived from the
/// seed alone, so every machine writes the same policy.
///
/// Usage: accuracy-perturb POLICY --sigma S --seed N -o OUT.json
/// POLICY is a built-in network policy (initial, poor) or a policy file.
#include "policy/Policy.h"
#include "train/Directions.h"

#include "llvm/Support/Error.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

[[noreturn]] void fail(const std::string &Message) {
  std::fprintf(stderr, "accuracy-perturb: error: %s\n", Message.c_str());
  std::exit(1);
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
  auto &Parameters = P->parameters();
  std::vector<float> Epsilon = mlgo::perturbationDirection(Seed, 0, 0, Parameters.size());
  for (size_t I = 0; I < Parameters.size(); ++I)
    Parameters[I] += float(Sigma * Epsilon[I]);
  char Name[96];
  std::snprintf(Name, sizeof Name, "%s+%gN(seed %llu)", P->name().c_str(), Sigma,
                (unsigned long long)Seed);
  P->setName(Name);
  if (llvm::Error E = mlgo::savePolicy(*P, Output))
    fail(llvm::toString(std::move(E)));
  return 0;
}
