#pragma once
// Seeded rounds of an A/B check on a noisy shared machine: each side's round median wanders by a
// common factor (cancels in the ratio) and its own noise (does not).
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace perfgate::test {

inline std::vector<double> synthetic_ratios(double true_ratio, int rounds, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> own(0, 0.03);
  std::vector<double> ratios;
  for (int r = 0; r < rounds; ++r) ratios.push_back(true_ratio * std::exp(own(rng) - own(rng)));
  return ratios;
}

}  // namespace perfgate::test
