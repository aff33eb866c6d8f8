#pragma once
// How a case is sampled: warm-up, batch length, and when adaptive sampling stops. Thresholds files
// set it (judge/thresholds.h, `sampling:`); the sampler follows it (measure/sampler.h).
#include <algorithm>
#include <string>

namespace perfgate {

struct SamplingSettings {
  int min_samples = 10;
  int max_samples = 200;
  double min_time_s = 0.3;
  double timeout_s = 20;
  double target_precision_pct = 1.0;  // stop when the median's 95% CI half-width is below this % of it
  // A check needs its verdict, not the figure (measure/precision_criterion.h, verdict-precision):
  // where the allowance its case is judged against is known (verdict_allowance_pct, set from
  // the baseline by a stored check, never from a file), sampling also stops once the median's
  // 95% CI half-width is below this fraction of that allowance. 0: off.
  double verdict_precision = 0;
  double verdict_allowance_pct = 0;
  // The baseline's median of the series sampled (set from the baseline by a stored check, never
  // from a file): its times relative to the calibration reference where
  // verdict_baseline_relative, else its raw times. With it, verdict-precision also stops once the
  // median's 95% interval lies clear of every edge of the allowance by a further half-width: a
  // verdict more samples could move only by a swing of about four times the median's standard
  // error (measure/precision_criterion.h). 0: unknown.
  double verdict_baseline_median = 0;
  bool verdict_baseline_relative = false;
  double warmup_s = 0.1;
  double batch_min_time_ms = 2;  // a sample is a batch of dispatches lasting at least this long
  int cold_samples = 5;          // 0: no cold measurement
  // Fresh buffer sets a case is measured on, the samples pooled: where a small kernel's time
  // depends on where its buffers land (in-L2 cases on a GPU move ~1% from one allocation to the
  // next, within a process as between processes), a run averages over that placement instead of
  // drawing one. The sample counts, times and cold samples are shared among the allocations.
  int allocations = 1;
  // Calibrated measurement (measure/calibration.h): each batch of the case follows a batch of a
  // reference workload, and the case is judged on its time relative to the reference's.
  bool calibrate = false;
  // The reference's case id when the case's baseline names one (set from the baseline by a stored
  // check, never from a file): the check is calibrated against what its baseline was, whatever
  // the peaks would choose (measure/calibration.h). Empty: chosen from the cost and the peaks.
  std::string calibration_reference;

  // A short look, for a case that has nothing to be judged against (a check without a
  // baseline): the same warm-up and batches, then kShortLookSamples samples (min_samples where
  // fewer) on one allocation, with no precision target, no calibration reference between them
  // and no cold samples: nothing judges relative_latency or cold times without a baseline, and
  // the cold flush writes twice the last-level cache per sample. Within kShortLookTimeout_s,
  // so a warm-up whose medians never agree on a busy machine stops after a quarter of that.
  // Its figures are printed and stored; no verdict rests on them. The correctness check runs as
  // for any measurement.
  static constexpr int kShortLookSamples = 5;  // a median and a spread to print
  static constexpr double kShortLookTimeout_s = 5;
  SamplingSettings short_look() const {
    SamplingSettings s = *this;
    s.min_samples = std::min(min_samples, kShortLookSamples);
    s.max_samples = s.min_samples;
    s.min_time_s = 0;
    s.allocations = 1;
    s.verdict_allowance_pct = 0;
    s.verdict_baseline_median = 0;
    s.calibrate = false;
    s.calibration_reference.clear();
    s.cold_samples = 0;
    s.timeout_s = std::min(timeout_s, kShortLookTimeout_s);
    return s;
  }
};

}  // namespace perfgate
