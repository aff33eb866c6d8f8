#pragma once
// The sampler's stopping rules, objects with a name and settings like nvbench's stdrel
// criterion: sampling ends once the median is known to a target precision (the half-width of
// its distribution-free 95% interval, stats/sample_series.h), after min_samples taken over
// min_time_s; it ends anyway at max_samples or at the timeout.
#include <span>
#include <string_view>

#include "core/sampling_settings.h"

namespace perfgate {

// The figure: the median to target_precision_pct.
class PrecisionCriterion {
 public:
  static constexpr std::string_view name = "median-precision";

  explicit PrecisionCriterion(const SamplingSettings& settings)
      : PrecisionCriterion(settings, settings.target_precision_pct) {}

  // `samples`: how many were taken; `series`: those whose median must be known (the case's
  // times, or its times relative to a calibration reference); `sampling_s`: time since sampling
  // began; `elapsed_s`: time since the warm-up began (the timeout counts from there).
  bool is_finished(int samples, std::span<const double> series, double sampling_s, double elapsed_s);

  // Whether it finished on the precision, not on a bound.
  bool converged() const { return converged_; }
  // The precision it stops at, % of the median.
  double target_pct() const { return target_pct_; }

 protected:
  PrecisionCriterion(const SamplingSettings& settings, double target_pct)
      : settings_(settings), target_pct_(target_pct) {}

 private:
  SamplingSettings settings_;
  double target_pct_;
  bool converged_ = false;
};

// The verdict: a check judged against an allowance of A% needs the median to a fraction of A,
// not to 1%: once the median's 95% half-width is below verdict_precision x A, more samples
// cannot move it across the allowance unless it already sits at its edge, where a verdict is a
// coin toss at any precision. The same bounds as median-precision (min_samples, min_time_s,
// max_samples, the timeout); its target is the larger of the two, so a check never samples
// longer than a run would.
class VerdictPrecisionCriterion : public PrecisionCriterion {
 public:
  static constexpr std::string_view name = "verdict-precision";

  explicit VerdictPrecisionCriterion(const SamplingSettings& settings);
};

// The rule the settings ask for: verdict-precision where the case's allowance is known and
// verdict_precision is set, else median-precision.
PrecisionCriterion stopping_rule(const SamplingSettings& settings);

}  // namespace perfgate
