// Mann-Whitney p-values against scipy.stats.mannwhitneyu(method="asymptotic") values, and the
// bootstrap interval's determinism and coverage.
#include "stats/significance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace perfgate {
namespace {

TEST(StatsMannWhitney, MatchesScipyDocumentationExample) {
  // scipy's mannwhitneyu docs: males vs females, asymptotic: U = 17, p = 0.11134688653314041.
  const std::vector<double> males = {19, 22, 16, 29, 24}, females = {20, 11, 17, 12};
  EXPECT_NEAR(mann_whitney_p(males, females), 0.11134688653314041, 1e-12);
  EXPECT_NEAR(mann_whitney_p(females, males), 0.11134688653314041, 1e-12);  // two-sided
}

TEST(StatsMannWhitney, TieCorrection) {
  // Ties within and across the samples (four 3s, three 4s): U = 3.5.
  const std::vector<double> a = {1, 2, 2, 3, 3, 3, 4}, b = {3, 4, 4, 5, 5, 6, 6, 7};
  EXPECT_NEAR(mann_whitney_p(a, b), 0.004793348746185464, 1e-12);
}

TEST(StatsMannWhitney, OverlappingRanges) {
  std::vector<double> a, b;
  for (int i = 1; i <= 20; ++i) a.push_back(i), b.push_back(i + 10);
  EXPECT_NEAR(mann_whitney_p(a, b), 5.212549620603763e-05, 1e-15);
}

TEST(StatsMannWhitney, NoEvidenceGivesOne) {
  const std::vector<double> same = {5, 5, 5, 5}, empty;
  EXPECT_DOUBLE_EQ(mann_whitney_p(same, same), 1);  // every value tied
  EXPECT_DOUBLE_EQ(mann_whitney_p(same, empty), 1);
  const std::vector<double> a = {1, 2, 3, 4, 5};
  EXPECT_DOUBLE_EQ(mann_whitney_p(a, a), 1);  // |U - mean| = 0 is below the continuity 0.5
}

TEST(StatsMannWhitney, FiveAgainstFiveCannotReachOnePercent) {
  // Complete separation of 5 vs 5 is the strongest evidence possible: p = 0.0122 (normal
  // approximation), so at significance 0.01 such tiny samples are never significant.
  const std::vector<double> low = {100, 110, 120, 130, 140}, high = {250, 260, 270, 280, 290};
  EXPECT_NEAR(mann_whitney_p(high, low), 0.012185780355344818, 1e-12);
}

std::vector<double> lognormal(std::mt19937_64& rng, int n, double median, double sigma) {
  std::normal_distribution<double> z(0, 1);
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(median * std::exp(sigma * z(rng)));
  return v;
}

TEST(StatsBootstrap, DeterministicForASeed) {
  std::mt19937_64 rng(7);
  const auto cur = lognormal(rng, 40, 2, 0.1), base = lognormal(rng, 60, 1, 0.1);
  const Interval a = bootstrap_median_ratio(cur, base, 0.99, 1234);
  const Interval b = bootstrap_median_ratio(cur, base, 0.99, 1234);
  EXPECT_EQ(a.low, b.low);
  EXPECT_EQ(a.high, b.high);
  EXPECT_LT(a.low, a.high);
}

TEST(StatsBootstrap, CoversTheTrueRatioAndWidensWithConfidence) {
  std::mt19937_64 rng(11);
  const auto cur = lognormal(rng, 50, 2, 0.1), base = lognormal(rng, 50, 1, 0.1);
  const Interval i99 = bootstrap_median_ratio(cur, base, 0.99, 1);
  const Interval i80 = bootstrap_median_ratio(cur, base, 0.80, 1);
  EXPECT_LT(i99.low, 2.0);
  EXPECT_GT(i99.high, 2.0);
  EXPECT_GT(i99.low, 1.5);  // a 2x change is far from "no change"
  EXPECT_LE(i99.low, i80.low);
  EXPECT_GE(i99.high, i80.high);
}

TEST(StatsBootstrap, ConstantSamplesGiveAPointInterval) {
  const std::vector<double> cur(9, 3.0), base(12, 1.5);
  const Interval i = bootstrap_median_ratio(cur, base, 0.95, 99, 200);
  EXPECT_DOUBLE_EQ(i.low, 2);
  EXPECT_DOUBLE_EQ(i.high, 2);
}

TEST(StatsBootstrap, UndefinedInputsGiveNaN) {
  const std::vector<double> some = {1, 2, 3}, zeros = {0, 0, 0}, empty;
  EXPECT_TRUE(std::isnan(bootstrap_median_ratio(empty, some, 0.99, 1).low));
  EXPECT_TRUE(std::isnan(bootstrap_median_ratio(some, zeros, 0.99, 1).high));
}

}  // namespace
}  // namespace perfgate
