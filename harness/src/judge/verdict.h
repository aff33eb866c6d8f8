#pragma once
// The verdict rules: one metric of one case against its baseline (docs/measuring.md, "How a case is judged").
//
//   change    ratio of medians, current against the pooled baseline, in the metric's direction
//   allowed   noise_factor x the upper bound of the baseline's run-to-run sigma from its n runs
//             (stats/run_noise.h: fewer runs, a wider bound), at least min_allowed_pct, or at
//             least a fixed max_regression_pct; for unstable runs
//             (multimodal or drifting) at least 1.5 x the span they showed
//   regressed worse than allowed, by more than min_change, and significant: the rank test's
//             p < significance AND the bootstrap interval of the median ratio (confidence
//             1 - significance) lies entirely on the worse side of no change
//   improved  the mirror image
//   inconclusive  past allowed (either way) but not significant: measure again
//   floor     a current median on the wrong side of a floor regresses whatever the baseline
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "judge/device_level.h"
#include "judge/thresholds.h"
#include "perfgate/result.h"
#include "stats/check_spread.h"
#include "stats/run_noise.h"

namespace perfgate {

// Judgement::threshold_source of a regression caused by an absolute floor (a metric's `floor`),
// whatever its relative allowance was: alerts name the floor, not an allowance it did not exceed.
inline constexpr const char* kAbsoluteFloor = "absolute floor";

// The regression a case may show before it fails: its resolution on this machine.
struct Allowance {
  double pct = 0;
  // "floor" | "noise" | "min_change" | "fixed" | "unstable" | "load" (Judgement::threshold_source)
  std::string source;
  std::string why;  // e.g. "4 x sigma <= 0.60% (0.31% over 5 runs, 90% bound)"
  // What this check's own spread called for (judge/load_allowance.h: load_factor x spread),
  // before load_max_pct cut it; 0 where the allowance follows no load. Above `pct`, the check
  // was too busy to judge a change between the two.
  double load_wanted_pct = 0;
  // What called for it: the check's "spread", its "drift" within the check, or its threads'
  // "waiting for cores".
  std::string load_wanted_by = "spread";
};
Allowance allowed_regression(const RunNoise& noise, const MetricThreshold& threshold, double noise_factor);

// A stored case's latency allowance under `thresholds` (its resolution before any check), with
// the noise of its runs: what `baseline propose` and `baseline show` report. From the
// relative_latency runs of a calibrated case, else latency_ns; nullopt when neither is judged
// relatively or the case has no such runs. `shape` chooses the floor as a check of such a case
// does (MetricThreshold::for_case: DRAM-sized, bound by compute or latency). `device_run_medians`:
// a GPU's baseline's (runs_of_device), whose pooled spread is the least its checks are allowed.
struct CaseNoise {
  std::string metric;  // relative_latency or latency_ns
  RunNoise noise;
  Allowance allowance;
};
std::optional<CaseNoise> latency_noise(const std::map<std::string, std::vector<std::vector<double>>>& runs,
                                       const Thresholds& thresholds, const CaseShape& shape = {},
                                       const std::map<std::string, std::map<std::string, std::vector<double>>>& device_run_medians = {});

// change_pct > 0 is worse. It is the "worse ratio" minus one: current / baseline for a metric
// better lower, baseline / current for one better higher, so latency and the bandwidth derived
// from it give the same change and the same verdict.
//
// Empty current samples give Verdict::error; baseline runs with no samples give
// Verdict::no_baseline (or regressed when a floor is violated). The bootstrap is seeded from the
// sample values, so the same inputs always give the same judgement.
//
// `level`: where the level judged against came from and how far this device's own level may lie
// from it (judge/device_level.h). With a bound, the change c is read as lying anywhere within it:
// pass only where even its far edge stays within the allowance (or, for one period, where c
// itself does); regressed only where it lies past what the bound and the allowance reach
// together (level_and_noise_reach_pct, core/resolution.h) and is significant against the bound's
// edge; between the two the change is named (inconclusive, `named`, source level.named_as): it
// may be that device's or host's own level. Without a bound, the rule above. `spread`: the
// spread this calibrated check's rounds showed (stats/check_spread.h); where the metric has a
// load_factor the allowance follows it (judge/load_allowance.h), and a change past what the
// load called for is judged, too busy or not.
Judgement judge_metric(std::string metric, std::span<const double> current,
                       const std::vector<std::vector<double>>& baseline_runs,
                       const MetricThreshold& threshold, double significance, double noise_factor,
                       const Level& level = {}, const std::optional<CheckSpread>& spread = std::nullopt);

// Without a baseline only a floor can be judged: nullopt when the metric has no floor,
// otherwise pass or regressed.
std::optional<Judgement> judge_floor(const std::string& metric, std::span<const double> current,
                                     const MetricThreshold& threshold);

// The case's verdict: the worst of its metrics (perfgate::severity order: regressed >
// inconclusive > improved > pass; improved only when one improved and none is worse).
// No judgements: pass.
Verdict combine(const std::vector<Judgement>& judgements);

// Whether an inconclusive case is only named: each inconclusive judgement lies within the bound
// of a level nothing placed (Judgement::named). More samples of this check cannot decide it (only
// runs of this device, host or another period can), so the gate does not measure it again
// (gate/stopping_rules.h).
bool only_named(const std::vector<Judgement>& judgements);

}  // namespace perfgate
