#include "stats/change_points.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace perfgate {
namespace {

// A run's value: `level` times a log-normal noise of `sigma` (relative), seeded.
std::vector<double> series(const std::vector<double>& levels, double sigma, unsigned seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> noise(0, sigma);
  std::vector<double> out;
  for (double level : levels) out.push_back(level * std::exp(noise(random)));
  return out;
}

std::vector<double> steps(std::initializer_list<std::pair<int, double>> pieces) {
  std::vector<double> levels;
  for (auto [runs, level] : pieces) levels.insert(levels.end(), runs, level);
  return levels;
}

TEST(ChangePoints, OneStepIsFoundAtItsRunWithItsMagnitude) {
  const ChangePointSettings s;
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const auto values = series(steps({{30, 100}, {10, 110}}), 0.01, seed);
    const Segmentation found = find_change_points(values, {}, s);
    ASSERT_EQ(found.changes.size(), 1u) << "seed " << seed;
    const ChangePoint& c = found.changes[0];
    EXPECT_NEAR(c.index, 30, 1) << "seed " << seed;
    EXPECT_NEAR(c.magnitude_pct, 10, 1.5);
    EXPECT_LT(c.low_pct, c.magnitude_pct);
    EXPECT_GT(c.high_pct, c.magnitude_pct);
    EXPECT_LT(c.low_pct, 10);
    EXPECT_GT(c.high_pct, 10);
    EXPECT_NEAR(c.median_before, 100, 1.5);
    EXPECT_NEAR(c.median_after, 110, 1.5);
    EXPECT_FALSE(c.known_boundary);
    ASSERT_EQ(found.segments.size(), 2u);
    EXPECT_EQ(found.segments[1].end, 40);
  }
}

TEST(ChangePoints, StationaryNoiseHasNoChangePoint) {
  const ChangePointSettings s;
  int false_changes = 0;
  for (unsigned seed = 1; seed <= 100; ++seed)
    false_changes +=
        static_cast<int>(find_change_points(series(steps({{40, 100}}), 0.02, seed), {}, s).changes.size());
  EXPECT_EQ(false_changes, 0);
}

TEST(ChangePoints, OneOutlierRunIsNoChangePoint) {
  const ChangePointSettings s;
  for (unsigned seed = 1; seed <= 20; ++seed) {
    auto values = series(steps({{40, 100}}), 0.01, seed);
    values[20] *= 2;    // one run twice as slow
    values[38] *= 1.5;  // and one near the end
    EXPECT_TRUE(find_change_points(values, {}, s).changes.empty()) << "seed " << seed;
  }
}

TEST(ChangePoints, BimodalRunsAreNoChangePoint) {
  // Each run lands in one of two modes 6% apart, at random: stationary, however jumpy.
  const ChangePointSettings s;
  for (unsigned seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 pick(seed + 1000);
    std::vector<double> levels;
    for (int i = 0; i < 60; ++i) levels.push_back(pick() % 2 ? 106 : 100);
    EXPECT_TRUE(find_change_points(series(levels, 0.005, seed), {}, s).changes.empty()) << "seed " << seed;
  }
}

TEST(ChangePoints, ARampIsCutAndItsDriftFails) {
  // 40 runs, each 0.5% slower than the one before: 22% in all, no single step.
  std::vector<double> levels;
  for (int i = 0; i < 40; ++i) levels.push_back(100 * std::pow(1.005, i));
  const ChangePointSettings s;
  const Segmentation found = find_change_points(series(levels, 0.01, 7), {}, s);
  ASSERT_GE(found.changes.size(), 1u);
  for (const ChangePoint& c : found.changes) EXPECT_GT(c.magnitude_pct, 0);
  const Drift drift = find_drift(found, 0, true, s);
  EXPECT_EQ(drift.best_segment, 0);
  EXPECT_GT(drift.vs_best_pct, s.drift_max_pct);
  EXPECT_TRUE(drift.exceeded);
}

TEST(ChangePoints, AStaircaseOfSmallStepsFailsOnDrift) {
  // Steps of +4%, each under a 5% allowance; drift fails once the newest is 10% past the best.
  ChangePointSettings s;
  s.drift_max_pct = 10;
  const auto two = find_change_points(series(steps({{10, 100}, {10, 104}, {10, 108.16}}), 0.01, 3), {}, s);
  EXPECT_FALSE(find_drift(two, 0, true, s).exceeded);
  const auto three =
      find_change_points(series(steps({{10, 100}, {10, 104}, {10, 108.16}, {10, 112.49}}), 0.01, 3), {}, s);
  EXPECT_EQ(three.changes.size(), 3u);
  const Drift drift = find_drift(three, 0, true, s);
  EXPECT_NEAR(drift.vs_best_pct, 12.5, 1.5);
  EXPECT_TRUE(drift.exceeded);
}

TEST(ChangePoints, DriftAgainstTheReference) {
  ChangePointSettings s;
  s.drift_max_pct = 10;
  const auto flat = find_change_points(series(steps({{20, 112}}), 0.01, 4), {}, s);
  EXPECT_NEAR(find_drift(flat, 100, true, s).vs_reference_pct, 12, 1);
  EXPECT_TRUE(find_drift(flat, 100, true, s).exceeded);
  EXPECT_FALSE(find_drift(flat, 110, true, s).exceeded);
  // Higher is better (bandwidth): a fall is worse.
  EXPECT_NEAR(find_drift(flat, 125, false, s).vs_reference_pct, 11.6, 1);
}

TEST(ChangePoints, AHistoryShorterThanTheMinimumSegmentHasNone) {
  const ChangePointSettings s;  // min_segment 5
  const auto values = series(steps({{4, 100}, {4, 150}}), 0.01, 5);
  const Segmentation found = find_change_points(values, {}, s);
  EXPECT_TRUE(found.changes.empty());
  ASSERT_EQ(found.segments.size(), 1u);
  EXPECT_EQ(found.segments[0].end, 8);
  EXPECT_TRUE(find_change_points(std::vector<double>{}, {}, s).segments.empty());
  EXPECT_EQ(find_change_points(std::vector<double>{5.0}, {}, s).segments.size(), 1u);
}

TEST(ChangePoints, ASourceHashBoundaryIsAKnownChangePoint) {
  const ChangePointSettings s;
  const std::vector<int> boundary{30};
  // A step at the boundary is reported there, marked known.
  const auto stepped = find_change_points(series(steps({{30, 100}, {10, 104}}), 0.01, 6), boundary, s);
  ASSERT_EQ(stepped.changes.size(), 1u);
  EXPECT_EQ(stepped.changes[0].index, 30);
  EXPECT_TRUE(stepped.changes[0].known_boundary);
  // No step at the boundary: the two builds merge into one segment, nothing reported.
  const auto same = find_change_points(series(steps({{40, 100}}), 0.01, 6), boundary, s);
  EXPECT_TRUE(same.changes.empty());
  // A boundary with too few runs after it says nothing yet.
  const auto young = find_change_points(series(steps({{30, 100}, {3, 130}}), 0.01, 6), boundary, s);
  EXPECT_TRUE(young.changes.empty());
}

TEST(ChangePoints, StepsUnderTheMagnitudeFloorAreMerged) {
  ChangePointSettings s;
  s.min_magnitude_pct = 2;
  // +1% with 0.1% noise is significant, but under the floor.
  EXPECT_TRUE(find_change_points(series(steps({{20, 100}, {20, 101}}), 0.001, 8), {}, s).changes.empty());
  s.min_magnitude_pct = 0.5;
  EXPECT_EQ(find_change_points(series(steps({{20, 100}, {20, 101}}), 0.001, 8), {}, s).changes.size(), 1u);
}

// The settings a history applies come from the series' own noise (settings_for_series).
std::vector<double> noisy_levels(const std::vector<double>& levels, double noise, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> z(0, noise);
  std::vector<double> values;
  for (double level : levels) values.push_back(level * std::exp(z(random)));
  return values;
}

TEST(SeriesNoise, AFifteenSigmaStepIsFoundAtItsRun) {
  // A DRAM stream repeating to 0.022%: 25 runs, then 12 runs +0.34% slower.
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto values = noisy_levels(steps({{25, 1.0}, {12, 1.0034}}), 0.00022, seed);
    const ChangePointSettings s = settings_for_series(values, ChangePointSettings{});
    EXPECT_LT(s.min_magnitude_pct, 0.2) << seed;
    const Segmentation found = find_change_points(values, {}, s);
    ASSERT_EQ(found.changes.size(), 1u) << seed;
    EXPECT_NEAR(found.changes[0].index, 25, 1) << seed;
    EXPECT_NEAR(found.changes[0].magnitude_pct, 0.34, 0.05) << seed;
  }
}

TEST(SeriesNoise, AQuietSeriesHasNoChangePoint) {
  int found = 0;
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    const auto values = noisy_levels(steps({{30, 1.0}}), 0.00022, 100 + seed);
    found +=
        !find_change_points(values, {}, settings_for_series(values, ChangePointSettings{})).changes.empty();
  }
  EXPECT_EQ(found, 0);
}

TEST(SeriesNoise, ABimodalCaseDoesNotAlert) {
  // Runs falling at random into two modes 6% apart: no level to step from.
  int alerts = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    std::mt19937_64 random(seed);
    std::bernoulli_distribution slow(0.5);
    std::vector<double> levels;
    for (int i = 0; i < 40; ++i) levels.push_back(slow(random) ? 1.06 : 1.0);
    const auto values = noisy_levels(levels, 0.002, 200 + seed);
    const ChangePointSettings s = settings_for_series(values, ChangePointSettings{});
    const Segmentation found = find_change_points(values, {}, s);
    alerts += !found.changes.empty() || find_drift(found, 0, true, s).exceeded;
  }
  EXPECT_EQ(alerts, 0);
}

// Runs that keep one of two modes for several runs in a row, switching with probability
// `switch_p` after each: stationary, though its blocks look like steps.
std::vector<double> sticky_modes(int runs, double apart, double switch_p, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::bernoulli_distribution change(switch_p);
  std::vector<double> levels;
  bool slow = random() % 2;
  for (int i = 0; i < runs; ++i, slow ^= change(random)) levels.push_back(slow ? 1 + apart : 1.0);
  return levels;
}

TEST(SeriesNoise, ABimodalCaseKeepingItsModeForRunsDoesNotAlert) {
  // latency_ns of q4_0_q8_matvec m=4096,k=2560 in 30 A/A runs on one H200 (2026-11-29): 6.04 us
  // in runs 2-5 and 15-16, 6.12 us in the others, each mode repeating to 0.01%.
  const std::vector<double> h200{6126.1, 6041.0, 6041.4, 6040.9, 6041.6, 6125.3, 6115.6, 6115.7,
                                 6126.1, 6128.2, 6123.1, 6115.9, 6113.2, 6125.9, 6041.3, 6040.2,
                                 6116.8, 6117.9, 6117.2, 6111.9, 6116.5, 6114.9, 6108.8, 6117.5,
                                 6116.2, 6110.1, 6117.6, 6128.2, 6079.2, 6128.6};
  const ChangePointSettings recorded = settings_for_series(h200, ChangePointSettings{});
  const Segmentation found = find_change_points(h200, {}, recorded);
  EXPECT_TRUE(found.changes.empty()) << "at run " << found.changes[0].index;
  EXPECT_FALSE(find_drift(found, 0, true, recorded).exceeded);
  // Seeded: two modes 1.3% apart, each kept for about five runs, 0.05% noise within a mode. A
  // mode met in one block only (l6 H19 l5) is a step and its revert, which no rule may hide.
  int alerts = 0, recurring = 0;
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    const std::vector<double> levels = sticky_modes(30, 0.013, 0.2, seed);
    int blocks[2] = {0, 0};
    for (std::size_t i = 0; i < levels.size(); ++i)
      blocks[levels[i] > 1] += i == 0 || levels[i] != levels[i - 1];
    if (blocks[0] < 2 || blocks[1] < 2) continue;
    ++recurring;
    const auto values = noisy_levels(levels, 0.0005, 300 + seed);
    const ChangePointSettings s = settings_for_series(values, ChangePointSettings{});
    const Segmentation cut = find_change_points(values, {}, s);
    bool regression = find_drift(cut, 0, true, s).exceeded;
    for (const ChangePoint& c : cut.changes) regression |= c.magnitude_pct > 0;
    alerts += regression;
  }
  EXPECT_GE(recurring, 80);
  EXPECT_EQ(alerts, 0) << "of " << recurring;
}

// How many of 50 seeded sticky two-mode series (modes 1.3% apart, 0.05% noise within a mode)
// show a change point at run 20 of 35 (or fail on drift) where both modes move `step_pct` there.
int bimodal_steps_found(double step_pct) {
  int found = 0;
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    auto levels = sticky_modes(35, 0.013, 0.2, seed);
    for (int i = 20; i < 35; ++i) levels[i] *= 1 + step_pct / 100;
    const auto values = noisy_levels(levels, 0.0005, 400 + seed);
    const ChangePointSettings s = settings_for_series(values, ChangePointSettings{});
    const Segmentation cut = find_change_points(values, {}, s);
    bool step = false;
    for (const ChangePoint& c : cut.changes) step |= std::abs(c.index - 20) <= 1 && c.magnitude_pct > 0;
    found += step || find_drift(cut, 0, true, s).exceeded;
  }
  return found;
}

TEST(SeriesNoise, AStepInABimodalCaseIsFoundWhenItMovesBothModesPastTheirDistance) {
  // Steps under the modes' distance are found less often than without the two-mode rule (1%:
  // 17 of 50, against 31); from 2% on, as often (35, 40 and 50 at 2, 3 and 5%).
  EXPECT_GE(bimodal_steps_found(2.0), 30);
  EXPECT_GE(bimodal_steps_found(5.0), 48);
}

TEST(SeriesNoise, AStepAtTheReportingFloorIsStillFound) {
  // 25 runs, then 15 runs 6 sigmas slower (0.2% noise, +1.2%): runs straying 4.5 sigmas toward
  // the other side would be read as two modes, and are too rare to hide the step.
  int found = 0;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    const auto values = noisy_levels(steps({{25, 1.0}, {15, 1.012}}), 0.002, 500 + seed);
    const ChangePointSettings s = settings_for_series(values, ChangePointSettings{});
    const Segmentation cut = find_change_points(values, {}, s);
    for (const ChangePoint& c : cut.changes) found += std::abs(c.index - 25) <= 1;
  }
  EXPECT_GE(found, 170);  // 178, as many as without the two-mode rule
}

TEST(SeriesNoise, AStaircaseOfStepsTooSmallToReportFailsOnDrift) {
  // Four steps of +0.15% on a series repeating to 0.022%, eight runs each.
  const auto values =
      noisy_levels(steps({{8, 1.0}, {8, 1.0015}, {8, 1.0030}, {8, 1.0045}, {8, 1.0060}}), 0.00022, 5);
  const ChangePointSettings s = settings_for_series(values, ChangePointSettings{});
  const Drift drift = find_drift(find_change_points(values, {}, s), 1.0, true, s);
  EXPECT_TRUE(drift.exceeded) << drift.vs_best_pct << "% vs best, " << drift.vs_reference_pct
                              << "% vs the baseline, " << s.drift_max_pct << "% allowed";
}

TEST(SeriesNoise, OneOddRunDoesNotHideAStep) {
  // A 10% step at run 30 of 40 with 0.5% noise, and one earlier run 1.5x, 2x or 1000x slower.
  for (double odd : {1.5, 2.0, 1000.0})
    for (int at : {3, 10, 25, 35}) {
      auto values = noisy_levels(steps({{30, 1.0}, {10, 1.1}}), 0.005, 9);
      values[at] *= odd;
      const ChangePointSettings s = settings_for_series(values, ChangePointSettings{});
      const Segmentation found = find_change_points(values, {}, s);
      bool step = false;
      for (const ChangePoint& c : found.changes) step |= std::abs(c.index - 30) <= 1 && c.magnitude_pct > 5;
      EXPECT_TRUE(step) << "x" << odd << " at run " << at << ": " << found.changes.size() << " change points";
    }
}

TEST(ChangePoints, RejectsNonPositiveValues) {
  const ChangePointSettings s;
  EXPECT_THROW(find_change_points(std::vector<double>{1, 0, 1}, {}, s), std::invalid_argument);
}

}  // namespace
}  // namespace perfgate
