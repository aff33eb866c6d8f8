// The sampler's stopping rule on synthetic samples: bounds first, then the precision of
// the median. Times are arguments, never measured.
#include "measure/precision_criterion.h"

#include <gtest/gtest.h>

#include <vector>

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

}  // namespace
}  // namespace perfgate
