// The sampler's stopping rule on synthetic samples: bounds first, then the precision of
// the median. Times are arguments, never measured.
#include "measure/precision_criterion.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "stats/sample_series.h"
#include "stats/summary.h"

namespace perfgate {
namespace {

// n samples around 100, spread evenly over ±2 x `step`.
std::vector<double> spread(int n, double step) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(100 + (i % 5 - 2) * step);
  return v;
}

TEST(MeasurePrecisionCriterion, StopsOnceTheMedianIsPreciseEnough) {
  PrecisionCriterion c(SamplingSettings{});  // 10 to 200 samples, 0.3 s, 20 s, 1%
  EXPECT_EQ(PrecisionCriterion::name, "median-precision");
  const auto tight = spread(30, 0.1);
  EXPECT_TRUE(c.is_finished(30, tight, 1, 2));
  EXPECT_TRUE(c.converged());
  // Noisier samples: the median is not yet known to 1%.
  const auto loose = spread(30, 20);
  EXPECT_FALSE(c.is_finished(30, loose, 1, 2));
  EXPECT_FALSE(c.converged());
}

TEST(MeasurePrecisionCriterion, NeverBeforeTheMinimumsAlwaysAtTheBounds) {
  PrecisionCriterion c(SamplingSettings{});  // 10 to 200 samples, 0.3 s, 20 s, 1%
  const auto tight = spread(30, 0.1);
  EXPECT_FALSE(c.is_finished(9, std::span(tight).first(9), 1, 2));  // fewer than min_samples
  EXPECT_FALSE(c.is_finished(30, tight, 0.2, 2));                   // under min_time_s
  const auto loose = spread(200, 20);
  EXPECT_TRUE(c.is_finished(200, loose, 1, 2));  // max_samples
  EXPECT_FALSE(c.converged());
  EXPECT_TRUE(c.is_finished(30, std::span(loose).first(30), 1, 20));  // the timeout
  EXPECT_FALSE(c.converged());
}

// A check judged against a 60% allowance needs its median to 6% (verdict_precision 0.1), not to
// 1%: samples spread over +-8% stop it at once, and only it.
TEST(MeasurePrecisionCriterion, AVerdictNeedsAFractionOfItsAllowance) {
  SamplingSettings settings;  // 10 to 200 samples, 0.3 s, 20 s, 1%
  settings.verdict_precision = 0.1;
  settings.verdict_allowance_pct = 60;
  const auto loose = spread(30, 4);
  PrecisionCriterion figure(SamplingSettings{});
  EXPECT_FALSE(figure.is_finished(30, loose, 1, 2));
  PrecisionCriterion verdict = stopping_rule(settings);
  EXPECT_DOUBLE_EQ(verdict.target_pct(), 6);
  EXPECT_TRUE(verdict.is_finished(30, loose, 1, 2));
  EXPECT_TRUE(verdict.converged());
  // The same bounds: never before min_samples and min_time_s.
  EXPECT_FALSE(verdict.is_finished(9, std::span(loose).first(9), 1, 2));
  EXPECT_FALSE(verdict.is_finished(30, loose, 0.2, 2));
  // Noisier than 6%: sampling goes on.
  EXPECT_FALSE(verdict.is_finished(30, spread(30, 20), 1, 2));
  EXPECT_EQ(VerdictPrecisionCriterion::name, "verdict-precision");
}

TEST(MeasurePrecisionCriterion, TheVerdictRuleNeedsAKnownAllowanceAndNeverSamplesFiner) {
  SamplingSettings settings;
  settings.verdict_precision = 0.1;
  EXPECT_DOUBLE_EQ(stopping_rule(settings).target_pct(), 1);  // no allowance known: the figure's rule
  settings.verdict_allowance_pct = 2;                         // 0.2% would be finer than 1%
  EXPECT_DOUBLE_EQ(stopping_rule(settings).target_pct(), 1);
  settings.verdict_allowance_pct = 900;
  EXPECT_DOUBLE_EQ(stopping_rule(settings).target_pct(), 90);
  settings.verdict_precision = 0;  // off
  EXPECT_DOUBLE_EQ(stopping_rule(settings).target_pct(), 1);
}

// The baseline's median known too: a check whose interval lies clear of the allowance's edges
// by a further half-width stops at min_samples, whichever way it is decided; one near an edge
// samples on to the precision. Samples spread over +-8% around `level` (half-width ~5% at 30).
std::vector<double> around(double level, int n = 30) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(level * (1 + (i % 5 - 2) * 0.04));
  return v;
}

TEST(MeasurePrecisionCriterion, AVerdictDecidedAwayFromTheAllowanceStopsAtTheMinimums) {
  SamplingSettings settings;  // 10 to 200 samples, 0.3 s, 20 s, 1%
  settings.verdict_precision = 0.1;
  settings.verdict_allowance_pct = 20;  // target 2%: the +-8% spread alone never stops it
  settings.verdict_baseline_median = 100;
  const double half = median_relative_precision(around(100));
  ASSERT_GT(half, 2);
  ASSERT_LT(half, 5.5);
  for (double level : {100.0, 103.0, 150.0, 300.0, 70.0}) {  // within, within, past, far past, better
    PrecisionCriterion c = stopping_rule(settings);
    EXPECT_TRUE(c.is_finished(30, around(level), 1, 2)) << level;
    EXPECT_TRUE(c.converged()) << level;
    EXPECT_TRUE(c.decided()) << level;
  }
  // Within two half-widths of the worse edge (120) or the better one (80): not decided.
  for (double level : {112.0, 120.0, 126.0, 85.0}) {
    PrecisionCriterion c = stopping_rule(settings);
    EXPECT_FALSE(c.is_finished(30, around(level), 1, 2)) << level;
    EXPECT_FALSE(c.decided()) << level;
  }
  // Never before the minimums, and not without the baseline's median.
  PrecisionCriterion early = stopping_rule(settings);
  const auto far = around(300);
  EXPECT_FALSE(early.is_finished(9, std::span(far).first(9), 1, 2));
  EXPECT_FALSE(early.is_finished(30, around(300), 0.2, 2));
  settings.verdict_baseline_median = 0;
  PrecisionCriterion unknown = stopping_rule(settings);
  EXPECT_FALSE(unknown.is_finished(30, around(300), 1, 2));
  // A run's figure (median-precision) never stops on a verdict.
  SamplingSettings figure;
  figure.verdict_baseline_median = 100;
  figure.verdict_allowance_pct = 20;
  EXPECT_FALSE(PrecisionCriterion(figure).is_finished(30, around(300), 1, 2));
}

// On seeded normal samples at the worse edge (a change of exactly the allowance), the rule almost
// never stops early on a pass: looking after every sample from 20 to 200, a median two
// half-widths clear of the edge is a swing of ~4 standard errors.
TEST(MeasurePrecisionCriterion, ADecidedVerdictSeldomStopsAChangeAtItsEdgeAsAPass) {
  SamplingSettings settings;
  settings.min_samples = 20;
  settings.verdict_precision = 0.1;
  settings.verdict_allowance_pct = 10;
  settings.verdict_baseline_median = 1;
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(1.10, 0.05);  // at the edge, 5% spread
  int early_passes = 0;
  constexpr int kTrials = 400;
  for (int t = 0; t < kTrials; ++t) {
    PrecisionCriterion c = stopping_rule(settings);
    std::vector<double> samples;
    for (int n = 1; n <= 200; ++n) {
      samples.push_back(noise(rng));
      if (c.is_finished(n, samples, 1, 2)) {
        if (c.decided() && median(samples) < 1.10) ++early_passes;
        break;
      }
    }
  }
  EXPECT_LE(early_passes, kTrials / 100);
}

// Nothing to judge against: a few samples on one allocation, no precision loop, no calibration
// reference and no cold samples.
TEST(MeasurePrecisionCriterion, AShortLookStopsAtAFewSamples) {
  SamplingSettings settings;
  settings.min_samples = 20;
  settings.allocations = 4;
  settings.verdict_precision = 0.1;
  settings.verdict_allowance_pct = 60;
  settings.calibrate = true;
  settings.calibration_reference = "calibration_stream/cpu/n=1048576";
  settings.cold_samples = 5;
  const SamplingSettings look = settings.short_look();
  const int n = SamplingSettings::kShortLookSamples;
  EXPECT_EQ(look.min_samples, n);
  EXPECT_EQ(look.max_samples, n);
  EXPECT_EQ(look.allocations, 1);
  EXPECT_FALSE(look.calibrate);
  EXPECT_EQ(look.calibration_reference, "");
  EXPECT_EQ(look.cold_samples, 0);
  EXPECT_DOUBLE_EQ(look.timeout_s, SamplingSettings::kShortLookTimeout_s);
  PrecisionCriterion c = stopping_rule(look);
  EXPECT_DOUBLE_EQ(c.target_pct(), 1);
  const auto loose = spread(n, 20);
  EXPECT_FALSE(c.is_finished(n - 1, std::span(loose).first(std::size_t(n - 1)), 0, 1));
  EXPECT_TRUE(c.is_finished(n, loose, 0, 1));
  EXPECT_FALSE(c.converged());
  settings.min_samples = 3;  // never more than the thresholds ask of a full measurement
  EXPECT_EQ(settings.short_look().max_samples, 3);
}

}  // namespace
}  // namespace perfgate
