#include "judge/history_analysis.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "perfgate/error.h"

namespace perfgate {
namespace {

// `runs` points of one case, `relative_latency` = level x seeded noise, the source hash changing
// from run `new_source` on (never when negative), the level rising by `step_pct` there.
std::vector<HistoryPoint> series(int runs, int new_source, double step_pct, unsigned seed = 1) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> noise(0, 0.01);
  std::vector<HistoryPoint> points;
  for (int i = 0; i < runs; ++i) {
    HistoryPoint p;
    p.machine_id = "cpu-test-2t";
    p.case_id = "copy/cpu/n=1048576";
    p.run_id = "run-" + std::to_string(i);
    p.commit = "commit" + std::to_string(i);
    p.started_at = std::to_string(1000 + i);
    const bool after = new_source >= 0 && i >= new_source;
    p.source_hash = after ? "sha256:new" : "sha256:old";
    p.medians["relative_latency"] = (after ? 1 + step_pct / 100 : 1.0) * std::exp(noise(random));
    p.medians["latency_ns"] = 1e6 * p.medians["relative_latency"];
    points.push_back(p);
  }
  return points;
}

ThresholdSet thresholds() {
  return ThresholdSet::from_yaml_text("defaults:\n  history: {min_magnitude_pct: 2, drift_max_pct: 10}\n",
                                      "t.yaml");
}

TEST(HistoryAnalysis, AStepAtANewSourceIsAKnownBoundaryWithItsCommitRange) {
  const auto histories = analyse_history(series(40, 30, 10), thresholds(), nullptr, {});
  ASSERT_EQ(histories.size(), 1u);
  const CaseHistory& h = histories[0];
  EXPECT_EQ(h.metric, "relative_latency");
  ASSERT_EQ(h.changes.size(), 1u);
  const HistoryChange& c = h.changes[0];
  EXPECT_EQ(c.run_index, 30);
  EXPECT_EQ(c.commit_before, "commit29");
  EXPECT_EQ(c.commit_after, "commit30");
  EXPECT_EQ(c.boundary, "kernel source");
  EXPECT_TRUE(c.regression);
  EXPECT_EQ(c.id.rfind("cp-", 0), 0u);
  EXPECT_EQ(h.open_regressions().size(), 1u);
  // The id is the same when the history grows.
  const auto longer = analyse_history(series(45, 30, 10), thresholds(), nullptr, {});
  ASSERT_EQ(longer[0].changes.size(), 1u);
  EXPECT_EQ(longer[0].changes[0].id, c.id);
}

TEST(HistoryAnalysis, TwoStepsAtOneCommitHaveTwoIds) {
  // Runs repeated on an unchanged tree (a study, nightly runs of one commit): a staircase of two
  // steps, every run at the same commit; each step keeps its own id as the history grows.
  auto points = series(30, -1, 0);
  for (std::size_t i = 0; i < points.size(); ++i) {
    points[i].commit = "same";
    const double level = i < 10 ? 1.0 : i < 20 ? 1.1 : 1.21;
    points[i].medians["relative_latency"] *= level;
  }
  const auto h = analyse_history(points, thresholds(), nullptr, {});
  ASSERT_EQ(h[0].changes.size(), 2u);
  EXPECT_NE(h[0].changes[0].id, h[0].changes[1].id);
  auto longer = points;
  longer.push_back(points.back());
  longer.back().run_id = "run-30";
  const auto again = analyse_history(longer, thresholds(), nullptr, {});
  ASSERT_EQ(again[0].changes.size(), 2u);
  EXPECT_EQ(again[0].changes[0].id, h[0].changes[0].id);
  EXPECT_EQ(again[0].changes[1].id, h[0].changes[1].id);
}

TEST(HistoryAnalysis, AnAcknowledgedChangeIsNotOpen) {
  const auto first = analyse_history(series(40, 30, 10), thresholds(), nullptr, {});
  const std::string id = first[0].changes[0].id;
  const std::map<std::string, Acknowledgement> acks{{id, {id, "alice", "wanted", "now"}}};
  const auto again = analyse_history(series(40, 30, 10), thresholds(), nullptr, acks);
  ASSERT_TRUE(again[0].changes[0].acknowledged);
  EXPECT_EQ(again[0].changes[0].acknowledged->by, "alice");
  EXPECT_TRUE(again[0].open_regressions().empty());
  // A 15% step drifts past the 10% allowed, until it is accepted: then the new level is the best.
  const auto big = analyse_history(series(40, 30, 15), thresholds(), nullptr, {});
  EXPECT_TRUE(big[0].drift_fails());
  const std::string big_id = big[0].changes[0].id;
  const auto accepted = analyse_history(series(40, 30, 15), thresholds(), nullptr,
                                        {{big_id, {big_id, "alice", "wanted", "now"}}});
  EXPECT_FALSE(accepted[0].drift.exceeded);
  EXPECT_EQ(accepted[0].drift.best_segment, 1);
}

TEST(HistoryAnalysis, NothingChangedNothingReported) {
  const auto histories = analyse_history(series(40, -1, 0), thresholds(), nullptr, {});
  EXPECT_TRUE(histories[0].changes.empty());
  EXPECT_FALSE(histories[0].drift_fails());
}

TEST(HistoryAnalysis, AcknowledgementsAndAlertsAreLogged) {
  const auto dir = std::filesystem::temp_directory_path() / "perfgate-history-log-test";
  std::filesystem::remove_all(dir);
  EXPECT_TRUE(read_acknowledgements(dir).empty());
  EXPECT_THROW(append_acknowledgement(dir, {"cp-1", "alice", "", "now"}), Error);
  append_acknowledgement(dir, {"cp-1", "alice", "wanted", "t1"});
  append_acknowledgement(dir, {"cp-1", "bob", "again", "t2"});
  const auto acks = read_acknowledgements(dir);
  ASSERT_EQ(acks.size(), 1u);
  EXPECT_EQ(acks.at("cp-1").by, "alice");  // the first stands
  append_alerted(dir, "cp-1", "t3");
  EXPECT_EQ(read_alerted(dir).count("cp-1"), 1u);
  std::ofstream(alerted_file(dir), std::ios::app) << "{broken\n";
  try {
    read_alerted(dir);
    FAIL() << "a broken log line must be an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("ALERTED.log:2"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

// A GPU case's runs: `levels[i]` on device `devices[i]` (one host), x seeded noise of 0.02%, as
// one H200's DRAM copy repeats; the kernel source and driver the same throughout.
std::vector<HistoryPoint> gpu_runs(const std::vector<std::string>& devices, const std::vector<double>& levels,
                                   unsigned seed = 3) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> noise(0, 0.0002);
  std::vector<HistoryPoint> points;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    HistoryPoint p;
    p.machine_id = "gpu-test";
    p.case_id = "copy/vulkan/n=33554432";
    p.run_id = "run-" + std::to_string(i);
    p.commit = "commit" + std::to_string(i);
    p.device_uuid = devices[i];
    p.host_id = "host";
    p.source_hash = "sha256:one";
    p.driver = "1.0";
    p.medians["latency_ns"] = 1e5 * levels[i] * std::exp(noise(random));
    points.push_back(p);
  }
  return points;
}

ThresholdSet series_thresholds() { return ThresholdSet::from_yaml_text("defaults: {}\n", "t.yaml"); }

// `count` runs on `device` at `level`, appended.
void add_runs(std::vector<std::string>& devices, std::vector<double>& levels, const std::string& device,
              double level, int count) {
  devices.insert(devices.end(), count, device);
  levels.insert(levels.end(), count, level);
}

TEST(HistoryAnalysis, AStepWhereTheRunsMoveToAnotherGpuIsNamedUntilThreeGpusWeighIt) {
  std::vector<std::string> devices;
  std::vector<double> levels;
  add_runs(devices, levels, "gpu-a", 1.0, 20);
  add_runs(devices, levels, "gpu-b", 1.003, 20);  // another GPU of the model: +0.3%, 15 sigma
  const auto h = analyse_history(gpu_runs(devices, levels), series_thresholds(), nullptr, {});
  ASSERT_EQ(h.size(), 1u);
  ASSERT_EQ(h[0].changes.size(), 1u);
  const HistoryChange& c = h[0].changes[0];
  EXPECT_EQ(c.run_index, 20);
  EXPECT_TRUE(c.regression);
  EXPECT_EQ(c.moved, "device");
  EXPECT_NE(c.not_gated.find("the runs before it name 1 device"), std::string::npos) << c.not_gated;
  EXPECT_TRUE(h[0].open_regressions().empty());
  EXPECT_TRUE(h[0].drift.exceeded);
  EXPECT_FALSE(h[0].drift_fails()) << h[0].drift_not_gated;
}

TEST(HistoryAnalysis, OnThreeGpusAStepPastTheirSpreadIsGatedAndOneWithinIsNot) {
  for (const double step : {1.05, 1.002}) {
    std::vector<std::string> devices;
    std::vector<double> levels;
    add_runs(devices, levels, "gpu-a", 1.0, 10);
    add_runs(devices, levels, "gpu-b", 1.0005, 10);  // the model's GPUs 0.05% apart
    add_runs(devices, levels, "gpu-c", 0.9995, 10);
    add_runs(devices, levels, "gpu-d", step, 10);
    const auto h = analyse_history(gpu_runs(devices, levels), series_thresholds(), nullptr, {});
    ASSERT_FALSE(h[0].changes.empty()) << step;
    const HistoryChange& c = h[0].changes.back();
    EXPECT_EQ(c.run_index, 30) << step;
    EXPECT_EQ(c.moved, "device");
    if (step > 1.01) {
      EXPECT_TRUE(c.not_gated.empty()) << c.not_gated;  // +5% is past 4 x the bound of a 0.05% spread
      EXPECT_EQ(h[0].open_regressions().size(), 1u);
    } else {
      EXPECT_NE(c.not_gated.find("within"), std::string::npos) << c.not_gated;
      EXPECT_TRUE(h[0].open_regressions().empty());
    }
  }
}

TEST(HistoryAnalysis, AStepAtANewSourceWhereTheRunsMovedIsWeighedAsAMove) {
  // Five leased GPUs, the last one's first run also the first of a new kernel source: its +0.2%
  // is within four GPUs' 0.05% spread, named; +5% is past it, gated; on the same GPU, gated.
  for (const double step : {1.002, 1.05}) {
    for (const bool same_gpu : {false, true}) {
      std::vector<std::string> devices;
      std::vector<double> levels;
      add_runs(devices, levels, "gpu-a", 1.0, 10);
      add_runs(devices, levels, "gpu-b", 1.0005, 10);
      add_runs(devices, levels, "gpu-c", 0.9995, 10);
      add_runs(devices, levels, "gpu-d", 1.0, 10);
      add_runs(devices, levels, same_gpu ? "gpu-d" : "gpu-e", step, 10);
      auto points = gpu_runs(devices, levels);
      for (std::size_t i = 40; i < points.size(); ++i) points[i].source_hash = "sha256:two";
      const auto h = analyse_history(points, series_thresholds(), nullptr, {});
      ASSERT_FALSE(h[0].changes.empty());
      const HistoryChange& c = h[0].changes.back();
      EXPECT_EQ(c.run_index, 40);
      EXPECT_EQ(c.boundary, "kernel source");
      EXPECT_EQ(c.moved, same_gpu ? "" : "device");
      const bool gated = same_gpu || step > 1.01;
      EXPECT_EQ(h[0].open_regressions().size(), gated ? 1u : 0u)
          << step << " " << same_gpu << ": " << c.not_gated;
    }
  }
}

TEST(HistoryAnalysis, AStepOnOneGpuRunsAfterAMoveIsGated) {
  std::vector<std::string> devices;
  std::vector<double> levels;
  add_runs(devices, levels, "gpu-a", 1.0, 15);
  add_runs(devices, levels, "gpu-b", 1.0, 15);    // the move itself steps nothing
  add_runs(devices, levels, "gpu-b", 1.004, 15);  // a +0.4% slowdown on the same GPU
  const auto h = analyse_history(gpu_runs(devices, levels), series_thresholds(), nullptr, {});
  ASSERT_EQ(h[0].changes.size(), 1u);
  EXPECT_EQ(h[0].changes[0].run_index, 30);
  EXPECT_EQ(h[0].changes[0].moved, "");
  EXPECT_EQ(h[0].open_regressions().size(), 1u);
}

TEST(HistoryAnalysis, OnAHostOfTwoGpusTakingTurnsAStepIsGated) {
  std::vector<std::string> devices;
  std::vector<double> levels;
  for (int i = 0; i < 40; ++i) add_runs(devices, levels, i % 2 ? "gpu-1" : "gpu-0", i < 25 ? 1.0 : 1.004, 1);
  const auto h = analyse_history(gpu_runs(devices, levels), series_thresholds(), nullptr, {});
  ASSERT_EQ(h[0].changes.size(), 1u);
  EXPECT_EQ(h[0].changes[0].run_index, 25);
  EXPECT_EQ(h[0].changes[0].moved, "");  // both GPUs measured before: neither is another
  EXPECT_EQ(h[0].open_regressions().size(), 1u);
}

TEST(HistoryAnalysis, OnACpuAStepWhereTheRunsMoveToAnotherHostIsNamed) {
  auto points = series(40, -1, 0);
  for (int i = 0; i < 40; ++i) {
    points[i].host_id = i < 30 ? "vm-1" : "vm-2";
    if (i >= 30) points[i].medians["relative_latency"] *= 1.2;  // the next VM 20% slower
  }
  const auto h = analyse_history(points, thresholds(), nullptr, {});
  ASSERT_EQ(h[0].changes.size(), 1u);
  EXPECT_EQ(h[0].changes[0].moved, "host");
  EXPECT_TRUE(h[0].open_regressions().empty());
}

}  // namespace
}  // namespace perfgate
