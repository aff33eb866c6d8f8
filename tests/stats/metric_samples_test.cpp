#include "stats/metric_samples.h"

#include <gtest/gtest.h>

namespace perfgate {
namespace {

TEST(StatsMetricSamples, MetricCarriesItsSummary) {
  const Metric m = make_metric({3, 1, 2});
  EXPECT_EQ(m.samples, (std::vector<double>{3, 1, 2}));
  EXPECT_EQ(m.summary.count, 3u);
  EXPECT_DOUBLE_EQ(m.summary.median, 2);
}

TEST(StatsMetricSamples, RatePerNsIsZeroForAZeroLatency) {
  // 8e9 bytes in 2e9 ns and 4e9 ns: 4 and 2 GB/s.
  EXPECT_EQ(rate_per_ns({2e9, 4e9, 0}, 8e9), (std::vector<double>{4, 2, 0}));
}

TEST(StatsMetricSamples, PooledKeepsRunOrder) {
  EXPECT_EQ(pooled({{1, 2}, {}, {3}}), (std::vector<double>{1, 2, 3}));
  EXPECT_TRUE(pooled({}).empty());
}

}  // namespace
}  // namespace perfgate
