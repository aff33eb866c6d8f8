// Several A/B pairs of one bisect step judged on the spread between them: each pair carries a
// bias of its own (here drawn with the H200's measured spread, sd 0.2%), so a +0.4% step that
// one pair cannot place is placed by ten, an A/A step is not called slower, and too few pairs
// or pairs too far apart leave the step to be measured again.
#include "judge/pair_spread.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace perfgate {
namespace {

// `n` pair ratios around `step` (a ratio), each pair off by its own bias of sd `bias_pct`.
std::vector<double> biased_pairs(int n, double step, double bias_pct, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> bias(0, bias_pct / 100);
  std::vector<double> ratios;
  for (int i = 0; i < n; ++i) ratios.push_back(step * std::exp(bias(gen)));
  return ratios;
}

// Placing a step at the midpoint between good and bad takes about twenty pairs when their bias
// (sd 0.2%) is half the step (0.4%); ten often leave it to be measured again, never the wrong way.
TEST(PairSpread, TwentyPairsPlaceAStepTwiceTheirBias) {
  int regressed = 0, passed = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    for (int n : {5, 10}) {
      EXPECT_NE(judge_pairs(biased_pairs(n, 1.004, 0.2, seed), 0.2, 0.01).verdict, Verdict::pass) << seed;
      EXPECT_NE(judge_pairs(biased_pairs(n, 1.0, 0.2, seed), 0.2, 0.01).verdict, Verdict::regressed) << seed;
    }
    const PairsJudgement slower = judge_pairs(biased_pairs(20, 1.004, 0.2, seed), 0.2, 0.01);
    const PairsJudgement same = judge_pairs(biased_pairs(20, 1.0, 0.2, seed + 100), 0.2, 0.01);
    regressed += slower.verdict == Verdict::regressed;
    passed += same.verdict == Verdict::pass;
    EXPECT_NE(slower.verdict, Verdict::pass) << seed;       // never the wrong way
    EXPECT_NE(same.verdict, Verdict::regressed) << seed;
  }
  EXPECT_GE(regressed, 18);
  EXPECT_GE(passed, 18);
}

TEST(PairSpread, TheIntervalNarrowsAsPairsArePooled) {
  const std::vector<double> all = biased_pairs(24, 1.004, 0.2, 7);
  const PairsJudgement four = judge_pairs(std::vector<double>(all.begin(), all.begin() + 4), 0.2, 0.01);
  const PairsJudgement pooled = judge_pairs(all, 0.2, 0.01);
  EXPECT_EQ(four.pairs, 4);
  EXPECT_EQ(pooled.pairs, 24);
  EXPECT_LT(pooled.interval.high - pooled.interval.low, (four.interval.high - four.interval.low) / 2);
  EXPECT_EQ(four.verdict, Verdict::inconclusive);
  EXPECT_EQ(pooled.verdict, Verdict::regressed);
  EXPECT_NEAR(pooled.ratio, 1.004, 0.001);
}

TEST(PairSpread, OnePairMeasuresNoSpread) {
  const PairsJudgement one = judge_pairs(std::vector<double>{1.5}, 0.2, 0.01);
  EXPECT_EQ(one.verdict, Verdict::inconclusive);
  EXPECT_DOUBLE_EQ(one.ratio, 1.5);
  EXPECT_TRUE(std::isinf(one.interval.high));
  EXPECT_EQ(judge_pairs(std::vector<double>{}, 0.2, 0.01).pairs, 0);
}

TEST(PairSpread, PairsThatDisagreeStayInconclusive) {
  // Two pairs read +0.6%, two -0.1%: their mean is past 0.2%, their spread does not place it.
  const PairsJudgement j = judge_pairs(std::vector<double>{1.006, 0.999, 1.006, 0.999}, 0.2, 0.01);
  EXPECT_GT(j.ratio, 1.002);
  EXPECT_EQ(j.verdict, Verdict::inconclusive);
  // A ratio that is no time (0, NaN) is left out, not counted as a pair.
  EXPECT_EQ(judge_pairs(std::vector<double>{1.0, 0.0, NAN, 1.0}, 0.2, 0.01).pairs, 2);
}

}  // namespace
}  // namespace perfgate
