#include "stats/sample_series.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "stats/summary.h"

namespace perfgate {

double median_relative_precision(std::vector<double> samples) {
  const std::size_t n = samples.size();
  if (n < 5) return std::numeric_limits<double>::infinity();
  std::sort(samples.begin(), samples.end());
  // Order statistics bracketing the median with ~95% coverage (binomial, normal approximation).
  const double half = 0.98 * std::sqrt(static_cast<double>(n));
  const auto lo = static_cast<std::size_t>(std::max(0.0, std::floor(n / 2.0 - half)));
  const auto hi = static_cast<std::size_t>(std::min(n - 1.0, std::ceil(n / 2.0 + half)));
  const double med = median(samples);
  return med > 0 ? 100.0 * 0.5 * (samples[hi] - samples[lo]) / med : std::numeric_limits<double>::infinity();
}

bool level_shift(std::span<const double> samples, double pct) {
  const std::size_t third = samples.size() / 3;
  if (third < 3) return false;
  const double first = median(samples.first(third));
  const double last = median(samples.last(third));
  return first > 0 && std::abs(last / first - 1) * 100 > pct;
}

std::vector<double> pool_by_position(const std::vector<std::span<const double>>& series) {
  std::vector<std::pair<double, double>> keyed;  // (relative position, value)
  for (const auto s : series)
    for (std::size_t i = 0; i < s.size(); ++i)
      keyed.emplace_back((static_cast<double>(i) + 0.5) / static_cast<double>(s.size()), s[i]);
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<double> pooled;
  pooled.reserve(keyed.size());
  for (const auto& k : keyed) pooled.push_back(k.second);
  return pooled;
}

}  // namespace perfgate
