// The statistics of paired rounds: the signed-rank test against known exact values and the
// order-statistic interval of the median.
#include "stats/paired.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace perfgate {
namespace {

TEST(StatsWilcoxon, MatchesScipyExactDarwinExample) {
  // scipy.stats.wilcoxon's documentation: Darwin's height differences, exact method:
  // two-sided p = 0.041259765625, so one-sided (greater) p = 0.0206298828125.
  const std::vector<double> d = {6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75};
  EXPECT_NEAR(wilcoxon_signed_rank_p(d, true), 0.0206298828125, 1e-12);
  EXPECT_GT(wilcoxon_signed_rank_p(d, false), 0.97);
}

TEST(StatsWilcoxon, AllPositiveIsOneOverTwoToTheN) {
  const std::vector<double> d = {0.5, 1, 3};
  EXPECT_DOUBLE_EQ(wilcoxon_signed_rank_p(d, true), 1.0 / 8);
  EXPECT_DOUBLE_EQ(wilcoxon_signed_rank_p(d, false), 1.0);
  const std::vector<double> zeros = {0, 0};
  EXPECT_DOUBLE_EQ(wilcoxon_signed_rank_p(zeros, true), 1.0);
}

TEST(StatsWilcoxon, TiedMagnitudesShareTheirRank) {
  // |d| ranks 1.5, 1.5, 3; all positive: still the most extreme of 2^3 sign patterns.
  const std::vector<double> d = {1, 1, 2};
  EXPECT_DOUBLE_EQ(wilcoxon_signed_rank_p(d, true), 1.0 / 8);
  // One tied value negative: positive sums >= 4.5 are {+1.5,+3}, {+1.5,+3} and all three.
  const std::vector<double> mixed = {-1, 1, 2};
  EXPECT_DOUBLE_EQ(wilcoxon_signed_rank_p(mixed, true), 3.0 / 8);
}

TEST(StatsMedianInterval, OrderStatisticsOfTheSignTest) {
  std::vector<double> v;
  for (int i = 20; i >= 1; --i) v.push_back(i);
  // n = 20 at 99%: x(4) and x(17), coverage 1 - 2 P(B(20, 1/2) <= 3) = 0.9974.
  const Interval ci = median_interval(v, 0.99);
  EXPECT_DOUBLE_EQ(ci.low, 4);
  EXPECT_DOUBLE_EQ(ci.high, 17);
  // Five values cannot give 99% coverage (the best is 1 - 2/32): the interval decides nothing.
  const std::vector<double> few = {1, 2, 3, 4, 5};
  EXPECT_TRUE(std::isinf(median_interval(few, 0.99).high));
}

}  // namespace
}  // namespace perfgate
