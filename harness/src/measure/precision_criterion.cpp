#include "measure/precision_criterion.h"

#include <algorithm>
#include <vector>

#include "stats/sample_series.h"

namespace perfgate {

bool PrecisionCriterion::is_finished(int samples, std::span<const double> series, double sampling_s,
                                     double elapsed_s) {
  converged_ = false;
  if (samples >= settings_.max_samples || elapsed_s >= settings_.timeout_s) return true;
  if (samples < settings_.min_samples || sampling_s < settings_.min_time_s) return false;
  converged_ = median_relative_precision({series.begin(), series.end()}) <= target_pct_;
  return converged_;
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
