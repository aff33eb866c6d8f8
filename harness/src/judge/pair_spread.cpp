#include "judge/pair_spread.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "stats/student_t.h"
#include "stats/summary.h"

namespace perfgate {

PairsJudgement judge_pairs(std::span<const double> pair_ratios, double allowed_pct, double significance) {
  std::vector<double> logs;
  for (double r : pair_ratios)
    if (r > 0 && std::isfinite(r)) logs.push_back(std::log(r));
  PairsJudgement j;
  j.pairs = static_cast<int>(logs.size());
  j.interval = {0, std::numeric_limits<double>::infinity()};
  if (logs.empty()) return j;
  const Summary summary = summarize(logs);
  const double mean = summary.mean;
  j.ratio = std::exp(mean);
  if (logs.size() < 2) return j;
  const double n = static_cast<double>(logs.size());
  const double standard_error = summary.stddev / std::sqrt(n);
  // One-sided at `significance` each way: the two-sided quantile at twice it (below 1: a
  // significance of a half or more would leave no interval).
  const double t = student_t_quantile(std::min(2 * significance, 0.999), n - 1);
  j.interval = {std::exp(mean - t * standard_error), std::exp(mean + t * standard_error)};
  const double limit = 1 + allowed_pct / 100;
  if (j.interval.low > limit)
    j.verdict = Verdict::regressed;
  else if (j.interval.high < limit)
    j.verdict = Verdict::pass;
  return j;
}

}  // namespace perfgate
