// The gate's stopping rules: a stored check measured again only while inconclusive, a bounded
// number of times; A/B rounds until the paired judgement settles, within their bounds. Seeded
// synthetic ratios; times are arguments, never measured.
#include "gate/stopping_rules.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "judge/synthetic_rounds.h"

namespace perfgate {
namespace {

TEST(GateInconclusiveCriterion, MeasuresAgainOnlyWhileInconclusive) {
  const InconclusiveCriterion c(2);
  EXPECT_EQ(InconclusiveCriterion::name, "remeasure-inconclusive");
  EXPECT_TRUE(c.is_finished(1, Verdict::pass));
  EXPECT_TRUE(c.is_finished(1, Verdict::regressed));
  EXPECT_FALSE(c.is_finished(1, Verdict::inconclusive));
  EXPECT_FALSE(c.is_finished(2, Verdict::inconclusive));
  EXPECT_TRUE(c.is_finished(3, Verdict::inconclusive));  // the first and two more
  EXPECT_TRUE(InconclusiveCriterion(0).is_finished(1, Verdict::inconclusive));
  EXPECT_TRUE(c.is_finished(1, Verdict::inconclusive, true)) << "only named: more samples cannot decide it";
}

using test::synthetic_ratios;

TEST(GateSettledCriterion, StopsWhenTheJudgementSettles) {
  const SettledCriterion c(Thresholds{}, Thresholds{}.ab_max_regression_pct);  // the defaults: ±5%, 20 to 400 rounds, 2 s, 20 s
  EXPECT_EQ(SettledCriterion::name, "paired-settled");
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    EXPECT_TRUE(c.is_finished(30, synthetic_ratios(1.0, 30, seed), 3)) << "A/A, seed " << seed;
    EXPECT_TRUE(c.is_finished(30, synthetic_ratios(1.5, 30, seed), 3)) << "1.5x, seed " << seed;
  }
  // On the edge of the allowance the judgement does not settle: more rounds.
  EXPECT_FALSE(c.is_finished(30, synthetic_ratios(1.05, 30, 4), 3));
}

TEST(GateSettledCriterion, NotBeforeTheMinimumsAlwaysAtTheBounds) {
  const SettledCriterion c(Thresholds{}, Thresholds{}.ab_max_regression_pct);  // the defaults: ±5%, 20 to 400 rounds, 2 s, 20 s
  const auto clear = synthetic_ratios(1.5, 30, 1);
  EXPECT_FALSE(c.is_finished(0, {}, 0));
  EXPECT_FALSE(c.is_finished(19, std::span(clear).first(19), 3));  // under ab_min_rounds ratios
  EXPECT_FALSE(c.is_finished(30, clear, 1.9));                     // under ab_min_time_s
  // Rounds without a ratio (no base time) count towards the bound, not towards the minimum.
  EXPECT_FALSE(c.is_finished(25, std::span(clear).first(19), 3));
  const auto edge = synthetic_ratios(1.05, 30, 4);
  EXPECT_TRUE(c.is_finished(400, edge, 3));                      // ab_max_rounds
  EXPECT_TRUE(c.is_finished(30, edge, 20));                      // the timeout
  EXPECT_TRUE(c.is_finished(5, std::span(clear).first(5), 20));  // the timeout before the minimums
}

}  // namespace
}  // namespace perfgate
