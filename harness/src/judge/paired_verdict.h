#pragma once
// The A/B verdict rule: base and head measured at the same moment, round after round, judged on
// their per-round ratios (head / base, > 1 = worse; statistics in stats/paired.h) instead of a
// stored baseline.
#include <cstddef>
#include <span>
#include <string>

#include "judge/thresholds.h"
#include "perfgate/result.h"
#include "stats/significance.h"

namespace perfgate {

// The change an A/B check tolerates between head and base before it calls the head slower: the
// thresholds' ab_max_regression_pct (measured on a 2-vCPU VM: +10% caught 20/20, A/A 0/100), or
// what the user asked for (bisect --allowed). Not from a baseline's runs: on an H200 two
// processes alive at once differed by up to 0.4% (A/A pairs of copy n=2^25) where one process at
// a time agreed to 0.02% (docs/performance.md, "Four H200s of four leases").
struct AbAllowance {
  double pct = 0;
  std::string source;  // "fixed": ab_max_regression_pct; "--allowed": the user's
  std::string why;
};
AbAllowance prior_ab_allowance(const Thresholds& thresholds);

struct PairedJudgement {
  std::size_t rounds = 0;
  double median_ratio = 0;  // median of head / base over the rounds
  Interval interval;        // of the median ratio, at 1 - significance
  double p_value = 1;       // paired test of the change beyond the allowance (see judge_paired)
  Verdict verdict = Verdict::pass;
};

// The verdict from per-round ratios in round order, with `allowed_pct` the change tolerated
// either way:
// - regressed: the interval lies wholly above 1 + allowed AND the signed-rank test of
//   log(ratio) - log(1 + allowed) > 0 has p < significance;
// - improved: the mirror image, below 1 / (1 + allowed) (else a pass);
// - inconclusive: the median ratio is past 1 + allowed, but not significantly, or not in both
//   halves of the rounds (in round order): a machine can favour one process for seconds (a
//   thread placement, a neighbour's burst), which a real change outlasts;
// - pass otherwise (a non-significant improvement included).
// p_value is the improvement test's for `improved`, else the regression test's.
PairedJudgement judge_paired(std::span<const double> ratios, double allowed_pct, double significance);

// Whether a judgement settles the check: significant either way, or confidently within the
// allowance (the whole interval inside it). Otherwise more rounds may decide.
bool paired_settled(const PairedJudgement& judged, double allowed_pct);

// Judges an A/B case: `result.ab` holds both builds (each with its median latency) and the
// rounds' ratios. Fills the comparison's judged fields, the case's one judgement (latency_ns,
// under `allowance`), its verdict and its message.
void judge_ab(CaseResult& result, const Thresholds& thresholds, const AbAllowance& allowance);

}  // namespace perfgate
