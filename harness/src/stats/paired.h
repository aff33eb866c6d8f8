#pragma once
// Judging paired measurements: base and head measured at the same moment, round after round,
// give one ratio per round (head / base, in the metric's worse direction). Noise that moves the
// whole machine moves both sides of a round alike, so the ratios are far tighter than two runs
// measured apart. Pure functions over the ratios; rank-based, so a single wild round cannot
// decide a verdict.
#include <cstddef>
#include <span>

#include "perfgate/result.h"
#include "stats/significance.h"

namespace perfgate {

// One-sided Wilcoxon signed-rank test of `differences` (zeros dropped, tied magnitudes given
// their average rank): the probability, if the differences were symmetric about 0, of a
// positive-rank sum at least as large as observed (`greater`), or at most as large (!greater).
// Exact (the permutation distribution over signs, ties included), not a normal approximation.
// Returns 1 when no difference is non-zero.
double wilcoxon_signed_rank_p(std::span<const double> differences, bool greater);

// Distribution-free interval of the median from order statistics (the sign test's inversion):
// the widest-coverage-first pair x(k), x(n+1-k) whose exact binomial coverage is at least
// `confidence`. Too few values for that coverage: {0, +inf}, which decides nothing.
Interval median_interval(std::span<const double> values, double confidence);

struct PairedJudgement {
  std::size_t rounds = 0;
  double median_ratio = 0;  // median of head / base over the rounds
  Interval interval;        // of the median ratio, at 1 - significance
  double p_value = 1;       // paired test of the change beyond the allowance (see judge_paired)
  Verdict verdict = Verdict::pass;
};

// The verdict from per-round ratios in round order (head / base, > 1 = worse), with `allowed_pct` the change
// tolerated either way:
// - regressed: the interval lies wholly above 1 + allowed AND the signed-rank test of
//   log(ratio) - log(1 + allowed) > 0 has p < significance;
// - improved: the mirror image, below 1 / (1 + allowed) (else a pass);
// - inconclusive: the median ratio is past 1 + allowed, but not significantly, or not in both
//   halves of the rounds (in round order): a machine can favour one process for seconds (a
//   thread placement, a neighbour's burst), which a real change outlasts;
// - pass otherwise (a non-significant improvement included).
// p_value is the improvement test's for `improved`, else the regression test's.
PairedJudgement judge_paired(std::span<const double> ratios, double allowed_pct, double significance);

}  // namespace perfgate
