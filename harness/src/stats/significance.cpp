#include "stats/significance.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "stats/summary.h"

namespace perfgate {

double mann_whitney_p(std::span<const double> a, std::span<const double> b) {
  const std::size_t n1 = a.size(), n2 = b.size(), n = n1 + n2;
  if (n1 == 0 || n2 == 0) return 1;
  std::vector<std::pair<double, bool>> pooled;  // value, from a
  pooled.reserve(n);
  for (double x : a) pooled.emplace_back(x, true);
  for (double x : b) pooled.emplace_back(x, false);
  std::sort(pooled.begin(), pooled.end());

  // Average ranks over ties; sum(t^3 - t) over tie groups corrects the variance.
  double rank_sum_a = 0, tie_term = 0;
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && pooled[j].first == pooled[i].first) ++j;
    const double average_rank = 0.5 * static_cast<double>(i + 1 + j);  // ranks i+1 .. j
    for (std::size_t k = i; k < j; ++k)
      if (pooled[k].second) rank_sum_a += average_rank;
    const auto t = static_cast<double>(j - i);
    tie_term += t * t * t - t;
    i = j;
  }
  const double dn1 = static_cast<double>(n1), dn2 = static_cast<double>(n2);
  const double dn = static_cast<double>(n);
  const double u1 = rank_sum_a - dn1 * (dn1 + 1) / 2;
  const double mean_u = dn1 * dn2 / 2;
  const double variance = dn1 * dn2 / 12 * ((dn + 1) - tie_term / (dn * (dn - 1)));
  if (variance <= 0) return 1;  // every value tied: no evidence of any difference
  const double z = std::max(0.0, std::abs(u1 - mean_u) - 0.5) / std::sqrt(variance);
  return std::min(1.0, std::erfc(z / std::sqrt(2.0)));  // 2 * (1 - Phi(z))
}

namespace {

// The median of one resample of `sorted` (ascending). Draws indices rather than values: as the
// values are sorted, the median of the drawn values is the value at the median drawn index, which
// a counting pass finds in O(n) without sorting anything. A multiply-shift maps 32 random bits
// to an index (no division in the hot loop); its bias, n / 2^32, is far below anything a
// bootstrap can see.
double resampled_median(const std::vector<double>& sorted, std::vector<std::uint32_t>& counts,
                        std::mt19937_64& rng) {
  const std::size_t n = sorted.size();
  counts.assign(n, 0);
  const std::uint64_t n64 = n;
  for (std::size_t i = 0; i < n; ++i) ++counts[((rng() >> 32) * n64) >> 32];
  // The (k+1)-th smallest draw, for k = (n-1)/2 and n/2: the same index when n is odd.
  const std::size_t k_low = (n - 1) / 2, k_high = n / 2;
  double low = 0;
  std::size_t seen = 0;
  for (std::size_t index = 0; index < n; ++index) {
    const std::size_t before = seen;
    seen += counts[index];
    if (before <= k_low && k_low < seen) low = sorted[index];
    if (before <= k_high && k_high < seen) return 0.5 * (low + sorted[index]);
  }
  return low;  // not reached: the counts sum to n
}

}  // namespace

Interval bootstrap_median_ratio(std::span<const double> current, std::span<const double> baseline,
                                double confidence, std::uint64_t seed, int resamples) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  if (current.empty() || baseline.empty() || resamples < 1 || median(baseline) == 0) return {nan, nan};
  std::mt19937_64 rng(seed);
  const std::vector<double> current_sorted = sorted_copy(current);
  const std::vector<double> baseline_sorted = sorted_copy(baseline);
  std::vector<std::uint32_t> counts;
  std::vector<double> ratios;
  ratios.reserve(static_cast<std::size_t>(resamples));
  for (int r = 0; r < resamples; ++r) {
    const double cur = resampled_median(current_sorted, counts, rng);
    const double base = resampled_median(baseline_sorted, counts, rng);
    // A resampled baseline median of 0 (samples mostly zero) makes the ratio unbounded.
    ratios.push_back(base != 0 ? cur / base : std::numeric_limits<double>::infinity());
  }
  const double alpha = 1 - std::clamp(confidence, 0.0, 1.0);
  return {percentile(ratios, 100 * alpha / 2), percentile(ratios, 100 * (1 - alpha / 2))};
}

}  // namespace perfgate
