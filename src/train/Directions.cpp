/// \file
/// SplitMix64 for uniform bits and Box-Muller for normals: both fully specified here,
/// unlike std::normal_distribution, whose output differs between standard libraries.
#include "Directions.h"

#include <cmath>

namespace mlgo {

namespace {

uint64_t splitMix64(uint64_t &State) {
  uint64_t Z = (State += 0x9e3779b97f4a7c15ull);
  Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ull;
  Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebull;
  return Z ^ (Z >> 31);
}

/// A uniform double in (0, 1]: never 0, so its logarithm is finite.
double uniform(uint64_t &State) {
  return double((splitMix64(State) >> 11) + 1) * 0x1.0p-53;
}

} // namespace

std::vector<float> perturbationDirection(uint64_t Seed, uint64_t Step, uint32_t Index,
                                         size_t Size) {
  uint64_t State = Seed;
  State = splitMix64(State) ^ Step;
  State = splitMix64(State) ^ Index;
  std::vector<float> Out(Size);
  constexpr double TwoPi = 6.283185307179586476925286766559;
  for (size_t I = 0; I < Size; I += 2) {
    double Radius = std::sqrt(-2.0 * std::log(uniform(State)));
    double Angle = TwoPi * uniform(State);
    Out[I] = float(Radius * std::cos(Angle));
    if (I + 1 < Size)
      Out[I + 1] = float(Radius * std::sin(Angle));
  }
  return Out;
}

} // namespace mlgo
