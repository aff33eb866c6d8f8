#pragma once
// Several fresh A/B pairs of one step judged on the spread between them (`bisect --pairs K`).
// Two processes alive at once carry a bias of their own for their whole life: on an H200, A/A
// pairs of copy n=2^25 read -0.20..+0.22% where each pair's rounds agreed to a few hundredths
// (docs/performance.md, "Four H200s of four leases"). More rounds of one pair cannot remove it;
// more pairs average it out. So each pair gives one number, the median of its rounds' ratios, and
// the step is judged on the pairs as a sample: their mean log ratio and its Student-t interval.
#include <span>

#include "perfgate/result.h"
#include "stats/significance.h"

namespace perfgate {

struct PairsJudgement {
  int pairs = 0;         // usable pair ratios (positive, finite)
  double ratio = 0;      // their geometric mean, head / base (> 1 = slower)
  Interval interval;     // of that mean, each side at `significance` (one-sided), from their spread
  Verdict verdict = Verdict::inconclusive;
};

// - regressed: the interval lies wholly above 1 + allowed;
// - pass: it lies wholly below 1 + allowed (an improvement included: bisect asks only "slower?");
// - inconclusive otherwise, and with fewer than two pairs (no spread measured): more pairs,
//   pooled with these, decide.
PairsJudgement judge_pairs(std::span<const double> pair_ratios, double allowed_pct, double significance);

}  // namespace perfgate
