// The A/B verdict rule on seeded synthetic rounds: A/A passes, a 10% shift regresses or
// improves, a wild round or a change in one half of the rounds does not decide; and the case's
// judgement, verdict and message from an A/B comparison.
#include "judge/paired_verdict.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "judge/synthetic_rounds.h"

namespace perfgate {
namespace {

using test::synthetic_ratios;

TEST(JudgePairedVerdict, SameBuildPasses) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto j = judge_paired(synthetic_ratios(1.0, 30, seed), 5, 0.01);
    EXPECT_EQ(j.verdict, Verdict::pass) << "seed " << seed << " median " << j.median_ratio;
    EXPECT_EQ(j.rounds, 30u);
  }
}

TEST(JudgePairedVerdict, TenPercentSlowerRegresses) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto j = judge_paired(synthetic_ratios(1.10, 30, seed), 5, 0.01);
    EXPECT_EQ(j.verdict, Verdict::regressed) << "seed " << seed << " median " << j.median_ratio;
    EXPECT_GT(j.interval.low, 1.05);
    EXPECT_LT(j.p_value, 0.01);
  }
}

TEST(JudgePairedVerdict, TenPercentFasterImproves) {
  const auto j = judge_paired(synthetic_ratios(1 / 1.10, 30, 7), 5, 0.01);
  EXPECT_EQ(j.verdict, Verdict::improved);
  EXPECT_LT(j.interval.high, 1 / 1.05);
}

TEST(JudgePairedVerdict, OneWildRoundDoesNotFlipTheVerdict) {
  auto same = synthetic_ratios(1.0, 30, 3);
  same[11] = 25;  // one round where only head was hit by a burst of other work
  EXPECT_EQ(judge_paired(same, 5, 0.01).verdict, Verdict::pass);
  auto slower = synthetic_ratios(1.10, 30, 3);
  slower[5] = 0.04;  // and one where only base was
  EXPECT_EQ(judge_paired(slower, 5, 0.01).verdict, Verdict::regressed);
}

TEST(JudgePairedVerdict, AChangeInOnlyOneHalfOfTheRoundsIsInconclusive) {
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

TEST(JudgePairedVerdict, PastTheAllowanceButTooFewRoundsIsInconclusive) {
  const std::vector<double> ratios = {1.3, 1.1, 1.25, 1.4, 1.2};
  const auto j = judge_paired(ratios, 5, 0.01);
  EXPECT_EQ(j.verdict, Verdict::inconclusive);
  EXPECT_DOUBLE_EQ(j.median_ratio, 1.25);
}

TEST(JudgePairedVerdict, NoRoundsIsInconclusive) {
  EXPECT_EQ(judge_paired(std::vector<double>{}, 5, 0.01).verdict, Verdict::inconclusive);
  // Rounds without a usable ratio count as none.
  const std::vector<double> unusable = {0, -1, INFINITY, NAN};
  const auto j = judge_paired(unusable, 5, 0.01);
  EXPECT_EQ(j.verdict, Verdict::inconclusive);
  EXPECT_EQ(j.rounds, 0u);
}

TEST(JudgePairedVerdict, SettledWhenSignificantOrConfidentlyWithinTheAllowance) {
  EXPECT_TRUE(paired_settled(judge_paired(synthetic_ratios(1.10, 30, 1), 5, 0.01), 5));
  EXPECT_TRUE(paired_settled(judge_paired(synthetic_ratios(1.0, 30, 1), 5, 0.01), 5));
  // A pass whose interval still reaches past the allowance: more rounds may decide.
  EXPECT_FALSE(paired_settled(judge_paired(synthetic_ratios(1.04, 6, 1), 5, 0.01), 5));
  EXPECT_FALSE(paired_settled(judge_paired(synthetic_ratios(1.10, 5, 1), 5, 0.01), 5));  // inconclusive
}

TEST(JudgePairedVerdict, JudgesAnAbCaseOnItsRatios) {
  CaseResult r;
  r.ab = AbComparison{};
  r.ab->base.latency_ns = 1000;
  r.ab->head.latency_ns = 2000;
  r.ab->base.source_hash = "a";
  r.ab->head.source_hash = "b";
  r.ab->ratios = synthetic_ratios(2.0, 40, 9);
  Thresholds t;
  t.ab_max_regression_pct = 5;
  t.significance = 0.01;
  const AbAllowance prior{5, "fixed", "fixed ab_max_regression_pct"};
  judge_ab(r, t, prior);
  EXPECT_EQ(r.verdict, Verdict::regressed);
  ASSERT_EQ(r.judgements.size(), 1u);
  const Judgement& j = r.judgements[0];
  EXPECT_EQ(j.metric, "latency_ns");
  EXPECT_EQ(j.verdict, Verdict::regressed);
  EXPECT_DOUBLE_EQ(j.baseline_median, 1000);
  EXPECT_DOUBLE_EQ(j.current_median, 2000);
  EXPECT_NEAR(j.change_pct, 100, 5);
  EXPECT_DOUBLE_EQ(j.threshold_pct, 5);
  EXPECT_EQ(r.ab->rounds, 40);
  EXPECT_DOUBLE_EQ(r.ab->max_regression_pct, 5);
  EXPECT_GT(r.ab->interval_low, 1.05);
  EXPECT_EQ(r.message.rfind("A/B: head/base median ratio ", 0), 0u) << r.message;
  EXPECT_NE(r.message.find("over 40 rounds, allowed ±5% (fixed ab_max_regression_pct)"), std::string::npos) << r.message;
  EXPECT_EQ(r.message.find("same kernel source"), std::string::npos);
  // The same source on both sides is said, since then no change of the kernel explains it.
  r.ab->head.source_hash = "a";
  judge_ab(r, t, prior);
  EXPECT_NE(r.message.find("(same kernel source in both builds)"), std::string::npos);
}

}  // namespace
}  // namespace perfgate
