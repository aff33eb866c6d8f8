#include "stats/geometric_mean.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "perfgate/metric_names.h"

namespace perfgate {
namespace {

TEST(StatsGeometricMean, OppositeChangesCancel) {
  const std::vector<double> ratios{2.0, 0.5};
  const auto g = geometric_mean(ratios);
  ASSERT_TRUE(g);
  EXPECT_NEAR(g->ratio, 1.0, 1e-12);
  EXPECT_EQ(g->count, 2);
  EXPECT_LT(g->low, 1.0);
  EXPECT_GT(g->high, 1.0);
  // t(0.95, 1) * sd(log) / sqrt(2), sd = sqrt(2) * log 2
  EXPECT_NEAR(std::log(g->high), 12.7062 * std::log(2.0), 1e-3);
}

TEST(StatsGeometricMean, EqualRatiosHaveNoWidthAndOneHasNoInterval) {
  const std::vector<double> same{1.1, 1.1, 1.1};
  const auto g = geometric_mean(same);
  ASSERT_TRUE(g);
  EXPECT_NEAR(g->ratio, 1.1, 1e-12);
  EXPECT_NEAR(g->low, 1.1, 1e-12);
  EXPECT_NEAR(g->high, 1.1, 1e-12);
  const std::vector<double> one{0.9};
  const auto single = geometric_mean(one);
  ASSERT_TRUE(single);
  EXPECT_EQ(single->low, 0);
  EXPECT_TRUE(std::isinf(single->high));
  EXPECT_NE(geometric_mean_text(*single).find("x0.900 (-10.0%) over 1 judged case"), std::string::npos)
      << geometric_mean_text(*single);
  const std::vector<double> none{0.0, -1.0};
  EXPECT_FALSE(geometric_mean(none));
}

// Seeded log-normal ratios around a 3% slowdown: the interval holds the true ratio in about 95%
// of draws and narrows with more cases.
TEST(StatsGeometricMean, IntervalCoversTheTrueRatioOnSeededSamples) {
  std::mt19937_64 rng(20261125);
  std::normal_distribution<double> log_ratio(std::log(1.03), 0.05);
  int covered = 0;
  double width_small = 0, width_large = 0;
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<double> ratios;
    for (int i = 0; i < 12; ++i) ratios.push_back(std::exp(log_ratio(rng)));
    const auto g = geometric_mean(ratios);
    ASSERT_TRUE(g);
    covered += g->low <= 1.03 && 1.03 <= g->high;
    width_small += std::log(g->high / g->low);
    for (int i = 0; i < 36; ++i) ratios.push_back(std::exp(log_ratio(rng)));
    const auto more = geometric_mean(ratios);
    width_large += std::log(more->high / more->low);
  }
  EXPECT_GE(covered, 360);  // 95% of 400 is 380; binomial sd is 4.4
  EXPECT_LE(covered, 396);
  EXPECT_LT(width_large, width_small * 0.6);
}

TEST(StatsGeometricMean, JudgedRatiosUseTheMetricThatJudged) {
  RunResult run;
  auto judged = [](Verdict v, std::vector<Judgement> js) {
    CaseResult c;
    c.verdict = v;
    c.judgements = std::move(js);
    return c;
  };
  Judgement latency{metric::latency_ns, 100, 120, 20, 5, 0.01, Verdict::regressed, ""};
  Judgement relative{metric::relative_latency, 2.0, 1.8, -10, 5, 0.01, Verdict::improved, ""};
  Judgement floor{metric::pct_peak_bw, 80, 70, 12.5, 5, 1, Verdict::regressed, ""};
  run.cases.push_back(judged(Verdict::regressed, {latency}));
  run.cases.push_back(judged(Verdict::improved, {latency, relative}));  // calibrated: relative decides
  run.cases.push_back(judged(Verdict::regressed, {floor}));             // no latency judged
  run.cases.push_back(judged(Verdict::no_baseline, {}));
  run.cases.push_back(judged(Verdict::error, {latency}));
  const auto ratios = judged_latency_ratios(run);
  ASSERT_EQ(ratios.size(), 2u);
  EXPECT_DOUBLE_EQ(ratios[0], 1.2);
  EXPECT_DOUBLE_EQ(ratios[1], 0.9);
}

}  // namespace
}  // namespace perfgate
