// One series of samples: the precision of its median, a level shift inside it, and series
// pooled by relative position. Known values and seeded jitter; no timing.
#include "stats/sample_series.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <span>
#include <vector>

#include "stats/run_noise.h"

namespace perfgate {
namespace {

TEST(StatsSampleSeries, MedianPrecisionShrinksWithSamples) {
  std::vector<double> few{10, 11, 9, 10, 12};
  std::vector<double> many;
  for (int i = 0; i < 400; ++i) many.push_back(10 + (i % 5 - 2) * 0.5);
  EXPECT_GT(median_relative_precision(few), median_relative_precision(many));
  EXPECT_TRUE(std::isinf(median_relative_precision({1, 2})));
  EXPECT_DOUBLE_EQ(median_relative_precision(std::vector<double>(50, 3.0)), 0.0);
  // n = 5: order statistics 0 and 4 around the median 10: half of (12 - 9) is 15% of it.
  EXPECT_DOUBLE_EQ(median_relative_precision(few), 15.0);
}

TEST(StatsSampleSeries, LevelShiftComparesTheFirstAndLatestThirds) {
  const std::vector<double> steady(30, 100.0);
  EXPECT_FALSE(level_shift(steady, 5));
  std::vector<double> shifted(20, 176.0);  // what an H100 copy did before its clock went up
  shifted.insert(shifted.end(), 10, 100.0);
  EXPECT_TRUE(level_shift(shifted, 5));
  EXPECT_FALSE(level_shift(std::vector<double>{176, 100, 100}, 5));  // too few samples to tell
}

TEST(StatsSampleSeries, PoolingByPositionInterleavesSeriesOfAnyLength) {
  const std::vector<double> a{1, 2, 3, 4}, b{10, 20};
  // Positions: a at 1/8, 3/8, 5/8, 7/8; b at 1/4, 3/4.
  EXPECT_EQ(pool_by_position({a, b}), (std::vector<double>{1, 10, 2, 3, 20, 4}));
  // Equal positions keep the series' order: one sample each lands in series order.
  const std::vector<double> x{7}, y{8}, z{9};
  EXPECT_EQ(pool_by_position({x, y, z}), (std::vector<double>{7, 8, 9}));
  EXPECT_TRUE(pool_by_position({}).empty());
}

// Two measurements of one case 3% apart (a new process's placement), each steady: pooled by
// position, the drift test sees none; concatenated, it sees the step as drift.
TEST(StatsSampleSeries, PoolingTwoMeasurementsHidesTheStepBetweenThem) {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> jitter(0, 0.05);
  std::vector<double> first, second;
  for (int i = 0; i < 60; ++i) first.push_back(100 * (1 + jitter(rng) / 100));
  for (int i = 0; i < 60; ++i) second.push_back(103 * (1 + jitter(rng) / 100));
  EXPECT_EQ(drift_pct(pool_by_position({first, second})), 0);
  std::vector<double> concatenated = first;
  concatenated.insert(concatenated.end(), second.begin(), second.end());
  EXPECT_GT(drift_pct(concatenated), 2.0);
}

}  // namespace
}  // namespace perfgate
