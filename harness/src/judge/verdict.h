#pragma once
// The verdict rules: one metric of one case against its baseline (DESIGN.md, "Deciding").
//
//   change    ratio of medians, current against the pooled baseline, in the metric's direction
//   allowed   max(max_regression_pct, noise_factor x run-to-run spread of the baseline)
//   regressed worse than allowed, by more than min_change, and significant: the rank test's
//             p < significance AND the bootstrap interval of the median ratio (confidence
//             1 - significance) lies entirely on the worse side of no change
//   improved  the mirror image
//   inconclusive  past allowed (either way) but not significant: measure again
//   floor     a current median on the wrong side of a floor regresses whatever the baseline
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "judge/thresholds.h"
#include "perfgate/result.h"

namespace perfgate {

// change_pct > 0 is worse. It is the "worse ratio" minus one: current / baseline for a metric
// better lower, baseline / current for one better higher, so latency and the bandwidth derived
// from it give the same change and the same verdict.
//
// Empty current samples give Verdict::error; baseline runs with no samples give
// Verdict::no_baseline (or regressed when a floor is violated). The bootstrap is seeded from the
// sample values, so the same inputs always give the same judgement.
Judgement judge_metric(std::string metric, std::span<const double> current,
                       const std::vector<std::vector<double>>& baseline_runs,
                       const MetricThreshold& threshold, double significance, double noise_factor);

// Without a baseline only a floor can be judged: nullopt when the metric has no floor,
// otherwise pass or regressed.
std::optional<Judgement> judge_floor(const std::string& metric, std::span<const double> current,
                                     const MetricThreshold& threshold);

// Run-to-run spread of the baseline, % of the median of its per-run medians:
// (max - min) / median over run medians. 0 with fewer than two non-empty runs.
double run_to_run_spread_pct(const std::vector<std::vector<double>>& baseline_runs);

// The case's verdict: the worst of its metrics (perfgate::severity order: regressed >
// inconclusive > improved > pass; improved only when one improved and none is worse).
// No judgements: pass.
Verdict combine(const std::vector<Judgement>& judgements);

}  // namespace perfgate
