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

  // Whether it finished on the precision (or a decided verdict), not on a bound.
  bool converged() const { return converged_; }
  // Whether it finished because the verdict was decided before the precision was reached.
  bool decided() const { return decided_; }
  // The precision it stops at, % of the median.
  double target_pct() const { return target_pct_; }

 protected:
  PrecisionCriterion(const SamplingSettings& settings, double target_pct)
      : settings_(settings), target_pct_(target_pct) {}

 private:
  // Whether the median, known to `precision_pct`, lies clear of every edge of the allowance.
  bool verdict_decided(double series_median, double precision_pct) const;

  SamplingSettings settings_;
  double target_pct_;
  bool converged_ = false;
  bool decided_ = false;
};

// The verdict: a check judged against an allowance of A% needs the median to a fraction of A,
// not to 1%: once the median's 95% half-width is below verdict_precision x A, more samples
// cannot move it across the allowance unless it already sits at its edge, where a verdict is a
// coin toss at any precision. Where the baseline's median is known too
// (verdict_baseline_median), it stops as soon as the verdict is decided: the median's 95%
// interval, widened by a further half-width, lies wholly within the allowance (a pass), wholly
// past its worse edge (a regression) or past its better one (an improvement). A median two
// half-widths from an edge crosses it only by a swing of about four standard errors, so looking
// after every sample costs the verdict next to nothing, while a check whose change lies far from
// its allowance (most of them) stops at min_samples. The same bounds as median-precision
// (min_samples, min_time_s, max_samples, the timeout); its target is the larger of the two, so
// a check never samples longer than a run would.
class VerdictPrecisionCriterion : public PrecisionCriterion {
 public:
  static constexpr std::string_view name = "verdict-precision";

  explicit VerdictPrecisionCriterion(const SamplingSettings& settings);
};

// The rule the settings ask for: verdict-precision where the case's allowance is known and
// verdict_precision is set, else median-precision.
PrecisionCriterion stopping_rule(const SamplingSettings& settings);

}  // namespace perfgate
