#include "stats/paired.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace perfgate {
namespace {

double median_sorted(const std::vector<double>& v) {
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

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

PairedJudgement judge_paired(std::span<const double> ratios, double allowed_pct, double significance) {
  PairedJudgement j;
  std::vector<double> sorted(ratios.begin(), ratios.end());
  std::erase_if(sorted, [](double r) { return !(r > 0) || !std::isfinite(r); });
  std::sort(sorted.begin(), sorted.end());
  j.rounds = sorted.size();
  if (sorted.empty()) {
    j.verdict = Verdict::inconclusive;
    j.interval = {0, std::numeric_limits<double>::infinity()};
    return j;
  }
  j.median_ratio = median_sorted(sorted);
  j.interval = median_interval(sorted, 1 - significance);
  const double worse_limit = 1 + allowed_pct / 100;
  const double better_limit = 1 / worse_limit;
  std::vector<double> beyond_worse, beyond_better;
  for (double r : sorted) {
    beyond_worse.push_back(std::log(r) - std::log(worse_limit));
    beyond_better.push_back(std::log(r) - std::log(better_limit));
  }
  const double p_worse = wilcoxon_signed_rank_p(beyond_worse, true);
  const double p_better = wilcoxon_signed_rank_p(beyond_better, false);
  j.p_value = p_worse;
  // Both halves of the rounds, in round order, must be past the limit for a change to count.
  std::vector<double> in_order;
  for (double r : ratios)
    if (r > 0 && std::isfinite(r)) in_order.push_back(r);
  const auto half = static_cast<std::ptrdiff_t>(in_order.size() / 2);
  std::vector<double> first(in_order.begin(), in_order.begin() + half),
      second(in_order.begin() + half, in_order.end());
  std::sort(first.begin(), first.end());
  std::sort(second.begin(), second.end());
  const bool halves_worse =
      !first.empty() && median_sorted(first) > worse_limit && median_sorted(second) > worse_limit;
  const bool halves_better =
      !first.empty() && median_sorted(first) < better_limit && median_sorted(second) < better_limit;
  if (j.interval.low > worse_limit && p_worse < significance && halves_worse) {
    j.verdict = Verdict::regressed;
  } else if (j.interval.high < better_limit && p_better < significance && halves_better) {
    j.verdict = Verdict::improved;
    j.p_value = p_better;
  } else if (j.median_ratio > worse_limit) {
    j.verdict = Verdict::inconclusive;
  }
  return j;
}

}  // namespace perfgate
