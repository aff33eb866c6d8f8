#include "judge/verdict.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/resolution.h"
#include "core/units.h"
#include "judge/device_spread.h"
#include "judge/load_allowance.h"
#include "perfgate/metric_names.h"
#include "stats/metric_samples.h"
#include "stats/run_noise.h"
#include "stats/significance.h"
#include "stats/summary.h"

namespace perfgate {
namespace {

std::string printf_string(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

std::string format_pct(double pct) { return printf_string("%.1f%%", pct); }

// Two significant digits, never an exponent: "0.38%", "6.5%", "100%" (not "1e+02%").
std::string pct_text(double pct) { return printf_string(std::abs(pct) >= 10 ? "%.0f%%" : "%.2g%%", pct); }

// FNV-1a over the values' bit patterns: a seed that is a function of the data alone.
std::uint64_t seed_from(std::span<const double> a, std::span<const double> b) {
  std::uint64_t hash = 14695981039346656037ull;
  for (auto values : {a, b})
    for (double x : values) {
      const auto bits = std::bit_cast<std::uint64_t>(x);
      for (int byte = 0; byte < 8; ++byte) {
        hash ^= (bits >> (8 * byte)) & 0xff;
        hash *= 1099511628211ull;
      }
    }
  return hash;
}

bool violates_floor(double current_median, const MetricThreshold& t) {
  if (!t.has_floor()) return false;
  return t.higher_is_better() ? current_median < *t.floor : current_median > *t.floor;
}

std::string floor_reason(const std::string& metric, double current_median, const MetricThreshold& t) {
  return "median " + format_metric_value(metric, current_median) +
         (t.higher_is_better() ? " below the floor " : " above the limit ") +
         format_metric_value(metric, *t.floor);
}

// current / baseline turned so that above 1 is worse; a zero on the dividing side is infinitely
// worse (or better), and two zeros are no change.
double worse_ratio(double current, double baseline, bool higher_is_better) {
  const double num = higher_is_better ? baseline : current;
  const double den = higher_is_better ? current : baseline;
  if (den == 0) return num == 0 ? 1 : std::numeric_limits<double>::infinity();
  return num / den;
}

}  // namespace

Allowance allowed_regression(const RunNoise& noise, const MetricThreshold& threshold, double noise_factor) {
  Allowance a;
  // The sigma an allowance rests on is the upper bound of what the runs measured (a few runs can
  // agree by luck), so the allowance says how many runs it came from and that more tighten it.
  const double from_noise = noise_factor * noise.sigma_bound_pct;
  std::string sigma;
  if (noise.counted_runs < 2) {
    sigma = "one baseline run: no run-to-run noise known";
  } else {
    const std::string measured = noise.median_error_pct > noise.sigma_pct
                                     ? "its medians' own precision " + pct_text(noise.median_error_pct)
                                     : pct_text(noise.sigma_pct);
    sigma = "sigma <= " + pct_text(noise.sigma_bound_pct) + " (" + measured +
            printf_string(" over %g runs, ", noise.counted_runs) +
            printf_string("%g%% bound; more runs tighten it)", 100 * kSigmaConfidence);
  }
  if (threshold.max_regression_pct) {
    a.pct = *threshold.max_regression_pct;
    a.source = "fixed";
    a.why = "fixed max_regression_pct; " + sigma;
  } else if (threshold.history_allowed_pct) {
    a.pct = *threshold.history_allowed_pct;
    a.source = "history";
    a.why = threshold.history_why + "; " + sigma;
  } else {
    a.pct = threshold.min_allowed_pct.value_or(0);
    a.source = "floor";
    // A floor stands for what one period's runs cannot see; the machine's history measures it.
    a.why = "floor " + threshold.floor_key + ", until this machine's history measures it (--history); " + sigma;
  }
  if (from_noise > a.pct) {
    a.pct = from_noise;
    a.source = "noise";
    a.why = printf_string("%g x ", noise_factor) + sigma;
  }
  if (threshold.pooled_allowed_pct && *threshold.pooled_allowed_pct > a.pct) {
    a.pct = *threshold.pooled_allowed_pct;
    a.source = "pooled";
    a.why = printf_string("%g x ", noise_factor) + threshold.pooled_why + "; this GPU's " + sigma;
  }
  if (noise.unstable) {
    // Runs in separate modes, or drifting, are not Gaussian: the allowance covers the span the
    // runs showed, with half again as margin.
    a.pct = std::max(a.pct, 1.5 * std::max(noise.range_pct, noise.drift_pct));
    a.source = "unstable";
    a.why = "unstable, " + noise.why + "; " + a.why;
  } else if (!noise.why.empty()) {
    a.why += "; " + noise.why;
  }
  return a;
}

std::optional<CaseNoise> latency_noise(const std::map<std::string, std::vector<std::vector<double>>>& runs,
                                       const Thresholds& thresholds, const CaseShape& shape,
                                       const std::map<std::string, std::map<std::string, std::vector<double>>>& device_run_medians) {
  // A calibrated case is judged on its relative time (judge/judge_case.cpp), so that is the
  // noise its allowance comes from.
  auto usable = [&](const char* metric) {
    auto t = thresholds.metrics.find(metric);
    auto r = runs.find(metric);
    return t != thresholds.metrics.end() && t->second.relative() && r != runs.end() && !r->second.empty();
  };
  const char* metric = usable(metric::relative_latency) ? metric::relative_latency : metric::latency_ns;
  if (!usable(metric)) return std::nullopt;
  MetricThreshold threshold = thresholds.metrics.at(metric).for_case(shape);
  allow_pooled_spread(threshold, device_run_medians, metric, thresholds.noise_factor);
  auto latency = runs.find(metric);
  CaseNoise out;
  out.metric = metric;
  out.noise = run_noise(latency->second, threshold.min_allowed_pct.value_or(0), thresholds.noise_factor,
                        threshold.leave_odd_run_out);
  out.allowance = allowed_regression(out.noise, threshold, thresholds.noise_factor);
  return out;
}

std::optional<Judgement> judge_floor(const std::string& metric, std::span<const double> current,
                                     const MetricThreshold& threshold) {
  if (!threshold.has_floor()) return std::nullopt;
  Judgement j;
  j.metric = metric;
  if (current.empty()) {
    j.verdict = Verdict::error;
    j.reason = "no samples measured";
    return j;
  }
  j.current_median = median(current);
  const bool violated = violates_floor(j.current_median, threshold);
  j.verdict = violated ? Verdict::regressed : Verdict::pass;
  if (violated) {
    j.threshold_source = kAbsoluteFloor;
    j.floor = *threshold.floor;
  }
  j.reason = violated ? floor_reason(metric, j.current_median, threshold)
                      : "median " + format_metric_value(metric, j.current_median) + " within the floor " +
                            format_metric_value(metric, *threshold.floor);
  return j;
}

Judgement judge_metric(std::string metric, std::span<const double> current,
                       const std::vector<std::vector<double>>& baseline_runs,
                       const MetricThreshold& threshold, double significance, double noise_factor,
                       const Level& level, const std::optional<CheckSpread>& spread) {
  std::vector<double> pooled = perfgate::pooled(baseline_runs);
  // This device's level, where its own runs in the history placed it (judge/device_level.h).
  if (level.ratio != 1)
    for (double& x : pooled) x *= level.ratio;
  if (current.empty() || pooled.empty()) {
    Judgement j = judge_floor(metric, current, threshold).value_or(Judgement{});
    j.metric = std::move(metric);
    if (current.empty()) {
      j.verdict = Verdict::error;
      j.reason = "no samples measured";
    } else if (j.verdict != Verdict::regressed) {
      j.current_median = median(current);
      j.verdict = Verdict::no_baseline;
      j.reason = "the baseline holds no samples";
    }
    return j;
  }

  Judgement j;
  j.metric = std::move(metric);
  j.current_median = median(current);
  j.baseline_median = median(pooled);
  j.level_source = level.source;
  j.level_bound_pct = level.bound_pct;
  j.level_offset_pct = 100 * (level.ratio - 1);
  const bool higher = threshold.higher_is_better();
  j.change_pct = 100 * (worse_ratio(j.current_median, j.baseline_median, higher) - 1);
  const RunNoise noise =
      run_noise(baseline_runs, threshold.min_allowed_pct.value_or(0), noise_factor, threshold.leave_odd_run_out);
  Allowance allowance = allowed_regression(noise, threshold, noise_factor);
  // The smallest change the instrument resolves at all: below min_change (a few timer ticks and
  // a dispatch's launch jitter) no change regresses, so that is the case's resolution where it
  // is the larger.
  if (threshold.min_change && j.baseline_median > 0 && threshold.relative()) {
    const double resolved_pct = 100 * *threshold.min_change / std::abs(j.baseline_median);
    if (resolved_pct > allowance.pct) {
      allowance.pct = resolved_pct;
      allowance.source = "min_change";
      allowance.why = "min_change " + format_metric_value(j.metric, *threshold.min_change) + " is " +
                      format_pct(resolved_pct) + " of its median; " + allowance.why;
    }
  }
  if (spread && threshold.relative()) allowance = follow_load(std::move(allowance), *spread, threshold);
  // The run being judged can drift too (a device changing state while measured): its median is
  // then no better known than the drift, which the allowance must cover like a baseline's.
  const double current_drift = drift_pct({current.begin(), current.end()});
  const bool current_drifts =
      threshold.relative() && current_drift > std::max(noise_factor * noise.sigma_pct, allowance.pct / 2);
  if (current_drifts) {
    // Where the allowance follows the load, its cap holds for a drift as for a spread: past
    // load_max_pct the check is too busy to judge, not allowed the whole drift (beside a
    // parallel build one A/A check of copy n=2^20 on the 2-core VM was allowed 256% that way).
    const double wanted = 1.5 * current_drift;
    const bool follows_load = spread && threshold.load_factor && *threshold.load_factor > 0;
    const bool capped = follows_load && threshold.load_max_pct && wanted > *threshold.load_max_pct;
    allowance.pct = std::max(allowance.pct, capped ? *threshold.load_max_pct : wanted);
    if (capped && wanted > allowance.load_wanted_pct) {
      allowance.load_wanted_pct = wanted;
      allowance.load_wanted_by = "drift";
    }
    allowance.source = "unstable";
    allowance.why =
        printf_string("unstable, this run drifted %.1f%% beyond its own jitter; ", current_drift) +
        allowance.why;
  }
  j.threshold_pct = allowance.pct;
  j.threshold_source = allowance.source;
  j.noise_pct = noise.sigma_pct;
  j.baseline_runs = noise.runs;
  j.unstable = allowance.source == "unstable";
  j.noise_note = noise.why;
  if (current_drifts)
    j.noise_note += (j.noise_note.empty() ? "" : "; ") +
                    printf_string("this run drifted %.1f%% beyond its own jitter", current_drift);
  j.p_value = mann_whitney_p(current, pooled);

  const std::string medians = "median " + format_metric_value(j.metric, j.current_median) + " vs " +
                              format_metric_value(j.metric, j.baseline_median) + ": " +
                              format_pct(std::abs(j.change_pct)) + (j.change_pct >= 0 ? " worse" : " better");
  const std::string detail = " (allowed " + format_pct(j.threshold_pct) + ", " + allowance.why +
                             printf_string(", p=%.2g)", j.p_value);

  if (violates_floor(j.current_median, threshold)) {
    j.verdict = Verdict::regressed;
    j.threshold_source = kAbsoluteFloor;
    j.floor = *threshold.floor;
    // What the floor allowed, not the noise allowance of a metric that may have no relative
    // threshold at all (a payload once carried threshold_pct 21097 for a floor regression).
    j.threshold_pct = std::max(0.0, 100 * (worse_ratio(j.floor, j.baseline_median, higher) - 1));
    j.reason = floor_reason(j.metric, j.current_median, threshold) + "; " + medians;
    return j;
  }
  if (!threshold.relative()) {  // judged by its floor only
    j.threshold_pct = 0;
    j.reason = medians + " (no relative threshold";
    j.reason +=
        threshold.has_floor() ? "; floor " + format_metric_value(j.metric, *threshold.floor) + " met)" : ")";
    return j;
  }
  // Where this device's level may lie from the one judged against (judge/device_level.h), the
  // change is read at the edges of that bound: `near` is what it is at the least, `far` at the most.
  const double bound = 1 + level.bound_pct / 100, ratio = 1 + j.change_pct / 100;
  const double near_pct = 100 * (ratio / bound - 1), far_pct = 100 * (ratio * bound - 1);
  const bool within_allowance = level.bound_pct == 0 || level.passes_within
                                    ? std::abs(j.change_pct) <= j.threshold_pct
                                    : far_pct <= j.threshold_pct && near_pct >= -j.threshold_pct;
  if (within_allowance) {
    j.reason = medians + detail;
    if (level.bound_pct > 0 && !level.passes_within)
      j.reason += ", within it wherever this device sits in the " + pct_text(level.bound_pct) +
                  " its level may lie from the baseline's";
    return j;
  }
  const double absolute_change = std::abs(j.current_median - j.baseline_median);
  if (threshold.min_change && absolute_change <= *threshold.min_change &&
      (level.bound_pct == 0 || level.passes_within)) {
    j.reason = medians + " but by " + format_metric_value(j.metric, absolute_change) +
               ", within min_change " + format_metric_value(j.metric, *threshold.min_change);
    return j;
  }
  // The check's own rounds called for more than load_max_pct: the machine moved the case against
  // its reference further than the cap covers, so a change within what they called for is no
  // evidence either way (beside a busy loop on the 2-core VM an A/A check of copy n=2^20 read
  // +175% with a 92% spread, its fresh process +166%). Measured again while so; inconclusive if
  // it stays so. Not bounded by what the load called for, as a level is: that A/A check's spread
  // called for 138% and it read +175%, so no bound measured yet lies short of a 2x slowdown.
  if (allowance.load_wanted_pct > j.threshold_pct) {
    j.verdict = Verdict::inconclusive;
    j.too_busy = true;
    j.reason = medians + detail + ", too busy to judge: this check's " + allowance.load_wanted_by +
               (std::isinf(allowance.load_wanted_pct)
                    ? std::string(" calls for more than any allowance")
                    : printf_string(" calls for %.0f%%", allowance.load_wanted_pct)) +
               ", past load_max_pct";
    return j;
  }

  // Within what the level and the noise reach together: the change may be this device's or
  // host's own level, so it is named, never called a regression (nor, but for one period, a pass).
  const double reach_pct = level_and_noise_reach_pct(level.bound_pct, j.threshold_pct);
  if (level.bound_pct > 0 && std::abs(std::log(ratio)) <= std::log1p(reach_pct / 100)) {
    j.verdict = Verdict::inconclusive;
    j.named = true;
    j.threshold_source = level.named_as;
    j.reason = medians + detail +
               ", not judged within " + pct_text(reach_pct) + " (its level's " + pct_text(level.bound_pct) +
               " and its allowance together): " +
               level.why;
    return j;
  }

  // Past the threshold (and the level's bound): both tests must agree that it is real. The
  // interval is of current / baseline, so "worse" is above 1 for lower-is-better and below 1
  // otherwise; against a bound, beyond the bound's edge on that side.
  const bool worse = j.change_pct > 0;
  const Interval ci = bootstrap_median_ratio(current, pooled, 1 - significance, seed_from(current, pooled));
  const bool ratio_up = worse == !higher;  // the ratio current / baseline above 1
  const bool ci_agrees = ratio_up ? ci.low > bound : ci.high < 1 / bound;
  if (level.bound_pct > 0) {
    // Significant against the edge of the bound, not against no change.
    std::vector<double> edge = pooled;
    for (double& x : edge) x *= ratio_up ? bound : 1 / bound;
    j.p_value = mann_whitney_p(current, edge);
  }
  const bool rank_agrees = j.p_value < significance;
  const std::string past = level.bound_pct > 0
                               ? ", past the " + pct_text(level.bound_pct) + " its level may lie (" + level.why +
                                     ") and its allowance together (" + pct_text(reach_pct) + ")"
                               : "";
  if (rank_agrees && ci_agrees) {
    j.verdict = worse ? Verdict::regressed : Verdict::improved;
    j.reason = medians + detail + past + (worse ? "" : "; a new baseline can be proposed");
    return j;
  }
  j.verdict = Verdict::inconclusive;
  j.reason = medians + detail + past + ", not significant: " +
             (rank_agrees
                  ? printf_string("the %g%% interval of the median ratio", 100 * (1 - significance)) +
                        printf_string(" [%.3g", ci.low) + printf_string(", %.3g] ", ci.high) +
                        (level.bound_pct > 0 ? "reaches into the bound" : "includes no change")
                  : printf_string("p is not below %g", significance));
  return j;
}

Verdict combine(const std::vector<Judgement>& judgements) {
  Verdict worst = Verdict::pass;
  for (const Judgement& j : judgements)
    if (severity(j.verdict) < severity(worst)) worst = j.verdict;
  return worst;
}

bool only_named(const std::vector<Judgement>& judgements) {
  bool named = false;
  for (const Judgement& j : judgements) {
    if (j.floor != 0) return false;  // more samples could still cross an absolute floor
    if (j.verdict != Verdict::inconclusive) continue;
    if (!j.named) return false;
    named = true;
  }
  return named;
}

}  // namespace perfgate
