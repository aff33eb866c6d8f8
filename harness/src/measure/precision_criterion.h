#pragma once
// The sampler's stopping rule, an object with a name and settings like nvbench's stdrel
// criterion: sampling ends once the median is known to target_precision_pct (the half-width of
// its distribution-free 95% interval, stats/sample_series.h), after min_samples taken over
// min_time_s; it ends anyway at max_samples or at the timeout.
#include <span>
#include <string_view>

#include "core/sampling_settings.h"

namespace perfgate {

class PrecisionCriterion {
 public:
  static constexpr std::string_view name = "median-precision";

  explicit PrecisionCriterion(const SamplingSettings& settings) : settings_(settings) {}

  // `samples`: how many were taken; `series`: those whose median must be known (the case's
  // times, or its times relative to a calibration reference); `sampling_s`: time since sampling
  // began; `elapsed_s`: time since the warm-up began (the timeout counts from there).
  bool is_finished(int samples, std::span<const double> series, double sampling_s, double elapsed_s);

  // Whether it finished on the precision, not on a bound.
  bool converged() const { return converged_; }

 private:
  SamplingSettings settings_;
  bool converged_ = false;
};

}  // namespace perfgate
