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

#include "CLI/CLI.hpp"
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
  double Sigma = 0;
  uint64_t Seed = 0;
  CLI::App App("Writes a random perturbation of a policy", "accuracy-perturb");
  App.add_option("policy", Input, "A built-in network policy (initial, poor) or a file")
      ->required();
  App.add_option("--sigma", Sigma, "The perturbation's size")->required()
      ->check(CLI::NonNegativeNumber);
  App.add_option("--seed", Seed, "Train's seed: the direction is its first at step 0")
      ->required();
  App.add_option("-o", Output, "The perturbed policy's file")->required();
  CLI11_PARSE(App, Argc, Argv);

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
