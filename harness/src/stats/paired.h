#pragma once
// Statistics of paired measurements: base and head measured at the same moment, round after
// round, give one ratio per round (head / base, in the metric's worse direction). Noise that
// moves the whole machine moves both sides of a round alike, so the ratios are far tighter than
// two runs measured apart. Pure, rank-based functions, so a single wild round cannot decide a
// verdict; the verdict rule over them is judge/paired_verdict.h.
#include <cstddef>
#include <span>

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

}  // namespace perfgate
