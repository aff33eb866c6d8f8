// The paired judgement on seeded synthetic rounds: the signed-rank test against known exact
// values, the order-statistic interval, and verdicts for A/A, a 10% shift and a wild round.
#include "stats/paired.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
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

// Rounds of a noisy shared machine: each side's round median wanders by a common factor
// (cancels in the ratio) and its own noise (does not).
std::vector<double> synthetic_ratios(double true_ratio, int rounds, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> own(0, 0.03);
  std::vector<double> ratios;
  for (int r = 0; r < rounds; ++r) ratios.push_back(true_ratio * std::exp(own(rng) - own(rng)));
  return ratios;
}

TEST(StatsJudgePaired, SameBuildPasses) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto j = judge_paired(synthetic_ratios(1.0, 30, seed), 5, 0.01);
    EXPECT_EQ(j.verdict, Verdict::pass) << "seed " << seed << " median " << j.median_ratio;
    EXPECT_EQ(j.rounds, 30u);
  }
}

TEST(StatsJudgePaired, TenPercentSlowerRegresses) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto j = judge_paired(synthetic_ratios(1.10, 30, seed), 5, 0.01);
    EXPECT_EQ(j.verdict, Verdict::regressed) << "seed " << seed << " median " << j.median_ratio;
    EXPECT_GT(j.interval.low, 1.05);
    EXPECT_LT(j.p_value, 0.01);
  }
}

TEST(StatsJudgePaired, TenPercentFasterImproves) {
  const auto j = judge_paired(synthetic_ratios(1 / 1.10, 30, 7), 5, 0.01);
  EXPECT_EQ(j.verdict, Verdict::improved);
  EXPECT_LT(j.interval.high, 1 / 1.05);
}

TEST(StatsJudgePaired, OneWildRoundDoesNotFlipTheVerdict) {
  auto same = synthetic_ratios(1.0, 30, 3);
  same[11] = 25;  // one round where only head was hit by a burst of other work
  EXPECT_EQ(judge_paired(same, 5, 0.01).verdict, Verdict::pass);
  auto slower = synthetic_ratios(1.10, 30, 3);
  slower[5] = 0.04;  // and one where only base was
  EXPECT_EQ(judge_paired(slower, 5, 0.01).verdict, Verdict::regressed);
}

TEST(StatsJudgePaired, AChangeInOnlyOneHalfOfTheRoundsIsInconclusive) {
  // The same build, the machine favouring base for the last two thirds of the check.
  auto ratios = synthetic_ratios(1.0, 60, 5);
  for (std::size_t r = 20; r < ratios.size(); ++r) ratios[r] *= 1.6;
  const auto j = judge_paired(ratios, 5, 0.01);
  EXPECT_GT(j.interval.low, 1.05);  // pooled, the rounds alone would say regressed
  EXPECT_EQ(j.verdict, Verdict::inconclusive);
  // Favouring head instead is no improvement either.
  auto faster = synthetic_ratios(1.0, 60, 5);
  for (std::size_t r = 20; r < faster.size(); ++r) faster[r] /= 1.6;
  EXPECT_EQ(judge_paired(faster, 5, 0.01).verdict, Verdict::pass);
}

TEST(StatsJudgePaired, PastTheAllowanceButTooFewRoundsIsInconclusive) {
  const std::vector<double> ratios = {1.3, 1.1, 1.25, 1.4, 1.2};
  const auto j = judge_paired(ratios, 5, 0.01);
  EXPECT_EQ(j.verdict, Verdict::inconclusive);
  EXPECT_DOUBLE_EQ(j.median_ratio, 1.25);
}

TEST(StatsJudgePaired, NoRoundsIsInconclusive) {
  EXPECT_EQ(judge_paired(std::vector<double>{}, 5, 0.01).verdict, Verdict::inconclusive);
}

}  // namespace
}  // namespace perfgate
