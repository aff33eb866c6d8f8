#include "judge/paired_verdict.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "perfgate/metric_names.h"
#include "stats/paired.h"
#include "stats/summary.h"

namespace perfgate {

AbAllowance prior_ab_allowance(const Thresholds& thresholds) {
  return {thresholds.ab_max_regression_pct, "fixed", "fixed ab_max_regression_pct"};
}

PairedJudgement judge_paired(std::span<const double> ratios, double allowed_pct, double significance) {
  PairedJudgement j;
  std::vector<double> valid;
  for (double r : ratios)
    if (r > 0 && std::isfinite(r)) valid.push_back(r);
  j.rounds = valid.size();
  if (valid.empty()) {
    j.verdict = Verdict::inconclusive;
    j.interval = {0, std::numeric_limits<double>::infinity()};
    return j;
  }
  j.median_ratio = median(valid);
  j.interval = median_interval(valid, 1 - significance);
  const double worse_limit = 1 + allowed_pct / 100;
  const double better_limit = 1 / worse_limit;
  std::vector<double> beyond_worse, beyond_better;
  for (double r : valid) {
    beyond_worse.push_back(std::log(r) - std::log(worse_limit));
    beyond_better.push_back(std::log(r) - std::log(better_limit));
  }
  const double p_worse = wilcoxon_signed_rank_p(beyond_worse, true);
  const double p_better = wilcoxon_signed_rank_p(beyond_better, false);
  j.p_value = p_worse;
  // Both halves of the rounds, in round order, must be past the limit for a change to count.
  const std::span<const double> in_order(valid);
  const std::size_t half = in_order.size() / 2;
  const bool split = half > 0;
  const double first = split ? median(in_order.first(half)) : 0;
  const double second = split ? median(in_order.subspan(half)) : 0;
  const bool halves_worse = split && first > worse_limit && second > worse_limit;
  const bool halves_better = split && first < better_limit && second < better_limit;
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

bool paired_settled(const PairedJudgement& judged, double allowed_pct) {
  if (judged.verdict == Verdict::regressed || judged.verdict == Verdict::improved) return true;
  const double worse = 1 + allowed_pct / 100;
  return judged.verdict == Verdict::pass && judged.interval.low > 1 / worse && judged.interval.high < worse;
}

void judge_ab(CaseResult& result, const Thresholds& thresholds, const AbAllowance& allowance) {
  AbComparison& ab = *result.ab;
  const double allowed_pct = allowance.pct;
  const PairedJudgement judged = judge_paired(ab.ratios, allowed_pct, thresholds.significance);
  ab.rounds = static_cast<int>(judged.rounds);
  ab.median_ratio = judged.median_ratio;
  ab.interval_low = judged.interval.low;
  ab.interval_high = judged.interval.high;
  ab.p_value = judged.p_value;
  ab.max_regression_pct = allowed_pct;

  Judgement j;
  j.metric = metric::latency_ns;
  j.baseline_median = ab.base.latency_ns;
  j.current_median = ab.head.latency_ns;
  j.change_pct = (judged.median_ratio - 1) * 100;
  j.threshold_pct = allowed_pct;
  j.threshold_source = allowance.source;
  j.p_value = judged.p_value;
  j.verdict = judged.verdict;
  j.reason =
      fmt::format("head/base median ratio {:.4f} [{:.4f}, {}] over {} rounds, allowed ±{:.2g}% ({}) (p = {:.2g})",
                  judged.median_ratio, judged.interval.low,
                  std::isfinite(judged.interval.high) ? fmt::format("{:.4f}", judged.interval.high) : "inf",
                  judged.rounds, allowed_pct, allowance.why, judged.p_value);
  result.judgements = {j};
  result.verdict = judged.verdict;
  result.message = "A/B: " + j.reason;
  if (ab.base.source_hash == ab.head.source_hash) result.message += " (same kernel source in both builds)";
}

}  // namespace perfgate
