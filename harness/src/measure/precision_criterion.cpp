#include "measure/precision_criterion.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "stats/sample_series.h"
#include "stats/summary.h"

namespace perfgate {

bool PrecisionCriterion::is_finished(int samples, std::span<const double> series, double sampling_s,
                                     double elapsed_s) {
  converged_ = decided_ = false;
  if (samples >= settings_.max_samples || elapsed_s >= settings_.timeout_s) return true;
  if (samples < settings_.min_samples || sampling_s < settings_.min_time_s) return false;
  const double precision_pct = median_relative_precision({series.begin(), series.end()});
  converged_ = precision_pct <= target_pct_;
  if (!converged_) converged_ = decided_ = verdict_decided(median({series.begin(), series.end()}), precision_pct);
  return converged_;
}

bool PrecisionCriterion::verdict_decided(double series_median, double precision_pct) const {
  const double baseline = settings_.verdict_baseline_median, allowance = settings_.verdict_allowance_pct;
  if (settings_.verdict_precision <= 0 || allowance <= 0 || baseline <= 0 || !std::isfinite(precision_pct))
    return false;
  // In units of the baseline's median: the change, the interval's half-width, and the edges of
  // the allowance (lower is better for the times sampled).
  const double ratio = series_median / baseline, half = ratio * precision_pct / 100;
  const double worse_edge = 1 + allowance / 100, better_edge = 1 - allowance / 100;
  const double low = ratio - 2 * half, high = ratio + 2 * half;
  if (low >= worse_edge) return true;                                // regressed, whatever more samples say
  if (better_edge > 0 && high <= better_edge) return true;           // improved
  return high <= worse_edge && (better_edge <= 0 || low >= better_edge);  // within it
}

VerdictPrecisionCriterion::VerdictPrecisionCriterion(const SamplingSettings& settings)
    : PrecisionCriterion(settings, std::max(settings.target_precision_pct,
                                            settings.verdict_precision * settings.verdict_allowance_pct)) {}

PrecisionCriterion stopping_rule(const SamplingSettings& settings) {
  if (settings.verdict_precision > 0 && settings.verdict_allowance_pct > 0)
    return VerdictPrecisionCriterion(settings);
  return PrecisionCriterion(settings);
}

}  // namespace perfgate
