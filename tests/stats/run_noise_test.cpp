// The run-to-run noise model on seeded synthetic runs: quiet runs give a small sigma, one odd run
// neither widens nor narrows it absurdly, runs in two modes or drifting inside a run are unstable.
#include "stats/run_noise.h"
#include "stats/chi_squared.h"
#include "stats/summary.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace perfgate {
namespace {

// A run of `n` samples around `median` with relative jitter `cv` (within-run noise).
std::vector<double> run_at(std::mt19937_64& rng, double median, double cv = 0.002, int n = 60) {
  std::normal_distribution<double> z(0, cv);
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(median * (1 + z(rng)));
  return v;
}

std::vector<std::vector<double>> runs_at(std::uint64_t seed, const std::vector<double>& medians) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<double>> runs;
  for (double m : medians) runs.push_back(run_at(rng, m));
  return runs;
}

TEST(RunNoise, QuietRunsGiveTheirSpread) {
  const auto noise = run_noise(runs_at(1, {1000, 1003, 997, 1001, 999}), 2, 4);
  EXPECT_EQ(noise.runs, 5);
  EXPECT_NEAR(noise.sigma_pct, 0.22, 0.08);
  EXPECT_NEAR(noise.range_pct, 0.6, 0.1);
  EXPECT_FALSE(noise.unstable);
  EXPECT_FALSE(noise.outlier_left_out);
  EXPECT_TRUE(noise.why.empty()) << noise.why;
}

TEST(RunNoise, TheBoundTightensAsRunsAccumulate) {
  // Runs whose medians scatter 0.5% around one level: averaged over seeds, five runs' bound is
  // near 1.94 x the true sigma, forty runs' near 1.22 x; every bound is at least the estimate.
  std::mt19937_64 rng(21);
  std::normal_distribution<double> level(1000, 5);
  auto mean_bound = [&](int n) {
    double sum = 0;
    for (int seed = 0; seed < 40; ++seed) {
      std::vector<std::vector<double>> runs;
      for (int r = 0; r < n; ++r) runs.push_back(run_at(rng, level(rng), 0.0005));
      const RunNoise noise = run_noise(runs, 0, 1e9);  // nothing set apart
      EXPECT_GE(noise.sigma_bound_pct, noise.sigma_pct);
      EXPECT_EQ(noise.counted_runs, n);
      sum += noise.sigma_bound_pct;
    }
    return sum / 40;
  };
  const double five = mean_bound(5), forty = mean_bound(40);
  EXPECT_NEAR(five, 0.5 * 1.94 * 0.94, 0.15);  // E[s] is 0.94 sigma at n = 5
  EXPECT_NEAR(forty, 0.5 * 1.22, 0.08);
  EXPECT_LT(forty, 0.75 * five);
}

TEST(RunNoise, RunsCannotAgreeBetterThanTheirMedians) {
  // Five runs of 60 samples with 2% jitter whose medians happen to coincide: the bound rests on
  // each median's own precision (1.2533 x 2% / sqrt(60), about 0.32%), not on a sigma of 0.
  std::mt19937_64 rng(22);
  std::vector<std::vector<double>> runs;
  for (int r = 0; r < 5; ++r) {
    std::vector<double> run = run_at(rng, 1000, 0.02);
    const double shift = 1000 - median(run);
    for (double& x : run) x += shift;
    runs.push_back(run);
  }
  const RunNoise noise = run_noise(runs, 0, 4);
  EXPECT_LT(noise.sigma_pct, 0.01);
  EXPECT_NEAR(noise.median_error_pct, 0.32, 0.1);
  EXPECT_NEAR(noise.sigma_bound_pct, sigma_upper_factor(5, kSigmaConfidence) * noise.median_error_pct, 1e-9);
}

TEST(RunNoise, OneOddRunIsLeftOutNotWidening) {
  // Four runs within 0.4%, one 8% slower: sigma stays that of the four, the case is not
  // unstable, and the odd run is named.
  const auto noise = run_noise(runs_at(2, {1000, 1002, 998, 1080, 1001}), 2, 4);
  EXPECT_TRUE(noise.outlier_left_out);
  EXPECT_LT(noise.sigma_pct, 0.4);
  EXPECT_FALSE(noise.unstable);
  EXPECT_NE(noise.why.find("one run"), std::string::npos) << noise.why;
}

TEST(RunNoise, OneOddRunCountsWhereNoNeighbourSlowsTheClock) {
  // The same runs on a GPU's own clock: the slower run is a mode of the case's own, so sigma
  // spans it and the allowance (4 x its bound) covers a check landing in that mode.
  const auto runs = runs_at(2, {1000, 1002, 998, 1080, 1001});
  const auto own = run_noise(runs, 0, 4, false);
  const auto shared = run_noise(runs, 0, 4, true);
  EXPECT_FALSE(own.outlier_left_out);
  EXPECT_EQ(own.outlier_runs, 1);
  EXPECT_FALSE(own.unstable);
  EXPECT_EQ(own.counted_runs, 5);
  EXPECT_GT(own.sigma_pct, 3.0);
  EXPECT_GT(4 * own.sigma_bound_pct, 8.0);  // the odd run's 8% lies inside the allowance
  EXPECT_LT(4 * shared.sigma_bound_pct, 8.0);
  EXPECT_NE(own.why.find("counted"), std::string::npos) << own.why;
}

TEST(RunNoise, TwoEqualRunsDoNotNarrowToZero) {
  // A median absolute deviation of {0, 0, 2%} would be 0; the standard deviation of three
  // runs keeps the 2% run in the estimate (too few runs to set one apart).
  const auto noise = run_noise(runs_at(3, {1000, 1000, 1020}), 2, 4);
  EXPECT_FALSE(noise.outlier_left_out);
  EXPECT_NEAR(noise.sigma_pct, 1.15, 0.2);
}

TEST(RunNoise, TwoModesAreUnstable) {
  // Seven runs, three of them 10% slower: multimodal, not noise.
  const auto noise = run_noise(runs_at(4, {1000, 1100, 1001, 999, 1102, 1000, 1098}), 2, 4);
  EXPECT_TRUE(noise.unstable);
  EXPECT_NE(noise.why.find("multimodal"), std::string::npos) << noise.why;
  EXPECT_NEAR(noise.range_pct, 10.3, 0.5);
}

TEST(RunNoise, DriftInsideARunIsUnstable) {
  std::mt19937_64 rng(5);
  std::vector<std::vector<double>> runs;
  for (int r = 0; r < 5; ++r) runs.push_back(run_at(rng, 1000));
  for (std::size_t i = 0; i < runs[2].size(); ++i)  // the third run slows by 6% as it goes
    runs[2][i] *= 1 + 0.06 * static_cast<double>(i) / static_cast<double>(runs[2].size());
  const auto noise = run_noise(runs, 2, 4);
  EXPECT_TRUE(noise.unstable);
  EXPECT_NE(noise.why.find("drifting"), std::string::npos) << noise.why;
  EXPECT_GT(noise.drift_pct, 2);  // the 4% between the thirds, less 4 errors of it
}

TEST(RunNoise, FewSamplesOrRunsAreNoNoise) {
  EXPECT_EQ(run_noise({}, 2, 4).runs, 0);
  const auto one = run_noise({{1, 2, 3}}, 2, 4);
  EXPECT_EQ(one.runs, 1);
  EXPECT_EQ(one.sigma_pct, 0);
  EXPECT_EQ(drift_pct(std::vector<double>(29, 1.0)), 0);  // fewer than 30 samples
}

}  // namespace
}  // namespace perfgate
