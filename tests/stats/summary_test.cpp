// Summary statistics against values computed by hand (numpy's definitions: sample stddev with
// n - 1, percentiles by linear interpolation between closest ranks).
#include "stats/summary.h"

#include <gtest/gtest.h>

#include <vector>

namespace perfgate {
namespace {

// Unsorted on purpose; sorted: 1 2 3 4 5 6 7 8 9 10 12.5.
const std::vector<double> kEleven = {2, 9, 4, 7, 5, 1, 8, 3, 10, 6, 12.5};

TEST(StatsSummary, KnownValues) {
  const Summary s = summarize(kEleven);
  EXPECT_EQ(s.count, 11u);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 12.5);
  EXPECT_DOUBLE_EQ(s.mean, 6.136363636363637);
  EXPECT_DOUBLE_EQ(s.median, 6);
  EXPECT_NEAR(s.stddev, 3.564343621839154, 1e-12);  // sample stddev (n - 1)
  EXPECT_NEAR(s.cv, 0.5808559976330473, 1e-12);
  EXPECT_DOUBLE_EQ(s.mad, 3);      // |x - 6| sorted: 0 1 1 2 2 3 3 4 4 5 6.5
  EXPECT_DOUBLE_EQ(s.p5, 1.5);     // rank 0.5: halfway between 1 and 2
  EXPECT_DOUBLE_EQ(s.p95, 11.25);  // rank 9.5: halfway between 10 and 12.5
}

TEST(StatsSummary, PercentileInterpolatesLikeNumpy) {
  const std::vector<double> four = {4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(median(four), 2.5);  // even count: mean of the two middle values
  EXPECT_DOUBLE_EQ(percentile(four, 0), 1);
  EXPECT_DOUBLE_EQ(percentile(four, 5), 1.15);
  EXPECT_DOUBLE_EQ(percentile(four, 25), 1.75);
  EXPECT_DOUBLE_EQ(percentile(four, 95), 3.85);
  EXPECT_DOUBLE_EQ(percentile(four, 100), 4);
  EXPECT_DOUBLE_EQ(percentile(kEleven, 37.5), 4.75);
}

TEST(StatsSummary, OneSampleHasNoSpread) {
  const std::vector<double> one = {42};
  const Summary s = summarize(one);
  EXPECT_EQ(s.count, 1u);
  EXPECT_DOUBLE_EQ(s.median, 42);
  EXPECT_DOUBLE_EQ(s.p5, 42);
  EXPECT_DOUBLE_EQ(s.p95, 42);
  EXPECT_DOUBLE_EQ(s.stddev, 0);
  EXPECT_DOUBLE_EQ(s.cv, 0);
  EXPECT_DOUBLE_EQ(s.mad, 0);
}

TEST(StatsSummary, EmptyGivesZerosNotNaN) {
  const Summary s = summarize({});
  EXPECT_EQ(s.count, 0u);
  EXPECT_DOUBLE_EQ(s.mean, 0);
  EXPECT_DOUBLE_EQ(median({}), 0);
  EXPECT_DOUBLE_EQ(percentile({}, 95), 0);
}

TEST(StatsSummary, StddevKeepsPrecisionOnLargeOffsets) {
  // 1e9 ns with +-1 ns: a one-pass sum of squares would lose these digits entirely.
  const std::vector<double> v = {1e9 - 1, 1e9, 1e9 + 1};
  EXPECT_NEAR(summarize(v).stddev, 1.0, 1e-9);
}

}  // namespace
}  // namespace perfgate
