#include "stats/paired.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace perfgate {
namespace {

// P(Binomial(n, 1/2) <= k), summed in logs so large n does not overflow.
double binomial_half_cdf(std::size_t n, std::size_t k) {
  double total = 0;
  for (std::size_t i = 0; i <= k && i <= n; ++i)
    total +=
        std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) - n * std::log(2.0));
  return std::min(1.0, total);
}

}  // namespace

double wilcoxon_signed_rank_p(std::span<const double> differences, bool greater) {
  struct Entry {
    double magnitude;
    bool positive;
  };
  std::vector<Entry> entries;
  for (double d : differences)
    if (d != 0 && !std::isnan(d)) entries.push_back({std::abs(d), d > 0});
  const std::size_t n = entries.size();
  if (n == 0) return 1;
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.magnitude < b.magnitude; });
  // Doubled ranks keep average ranks of ties whole numbers.
  std::vector<std::size_t> rank2(n);
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j + 1 < n && entries[j + 1].magnitude == entries[i].magnitude) ++j;
    for (std::size_t k = i; k <= j; ++k) rank2[k] = i + j + 2;  // 2 x the average of ranks i+1..j+1
    i = j + 1;
  }
  std::size_t observed = 0, total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    total += rank2[i];
    if (entries[i].positive) observed += rank2[i];
  }
  // Under the null each rank's sign is a fair coin: the distribution of the positive sum.
  std::vector<double> p(total + 1, 0.0);
  p[0] = 1;
  std::size_t reach = 0;
  for (std::size_t r : rank2) {
    reach += r;
    for (std::size_t s = reach + 1; s-- > 0;) p[s] = 0.5 * (p[s] + (s >= r ? p[s - r] : 0));
  }
  double tail = 0;
  if (greater) {
    for (std::size_t s = observed; s <= total; ++s) tail += p[s];
  } else {
    for (std::size_t s = 0; s <= observed; ++s) tail += p[s];
  }
  return std::min(1.0, tail);
}

Interval median_interval(std::span<const double> values, double confidence) {
  std::vector<double> v(values.begin(), values.end());
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  const double alpha = 1 - confidence;
  // The largest k with coverage 1 - 2 P(B <= k - 1) >= confidence; k = 0: none reaches it.
  std::size_t k = 0;
  while (k + 1 <= n / 2 && 2 * binomial_half_cdf(n, k) <= alpha) ++k;
  if (k == 0) return {0, std::numeric_limits<double>::infinity()};
  return {v[k - 1], v[n - k]};
}

}  // namespace perfgate
