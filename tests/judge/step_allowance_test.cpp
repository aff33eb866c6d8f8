// What a bisect judges its steps under where the user did not say: a change point finer than the
// A/B allowance sets the allowance to its midpoint and measures each step by several pairs; a
// coarse one, a range without a change point, or the user's own flags change nothing.
#include "judge/step_allowance.h"

#include <gtest/gtest.h>

namespace perfgate {
namespace {

TEST(StepAllowance, AFineChangePointSetsTheMidpointAndSeveralPairs) {
  const StepAllowance a = step_allowance(std::nullopt, std::nullopt, 0.4, 5);  // an H200's DRAM step
  ASSERT_TRUE(a.allowed_pct);
  EXPECT_DOUBLE_EQ(*a.allowed_pct, 0.2);
  EXPECT_EQ(a.pairs, kFineStepPairs);
  EXPECT_NE(a.why.find("--allowed 0.2%"), std::string::npos) << a.why;
  EXPECT_NE(a.why.find("--pairs 10"), std::string::npos) << a.why;
}

TEST(StepAllowance, ACoarseChangePointKeepsTheDefaults) {
  const StepAllowance a = step_allowance(std::nullopt, std::nullopt, 30, 5);  // half of 30% is past 5%
  EXPECT_FALSE(a.allowed_pct);
  EXPECT_EQ(a.pairs, 1);
  EXPECT_TRUE(a.why.empty());
  EXPECT_FALSE(step_allowance(std::nullopt, std::nullopt, std::nullopt, 5).allowed_pct) << "no change point";
  EXPECT_FALSE(step_allowance(std::nullopt, std::nullopt, -3, 5).allowed_pct) << "an improvement";
}

TEST(StepAllowance, TheUsersFlagsWin) {
  const StepAllowance given = step_allowance(1.0, 3, 0.4, 5);
  EXPECT_DOUBLE_EQ(*given.allowed_pct, 1.0);
  EXPECT_EQ(given.pairs, 3);
  EXPECT_TRUE(given.why.empty());
  const StepAllowance pairs_given = step_allowance(std::nullopt, 4, 0.4, 5);
  EXPECT_DOUBLE_EQ(*pairs_given.allowed_pct, 0.2);
  EXPECT_EQ(pairs_given.pairs, 4);
  EXPECT_EQ(pairs_given.why.find("--pairs"), std::string::npos) << pairs_given.why;
}

}  // namespace
}  // namespace perfgate
