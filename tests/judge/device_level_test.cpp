// A GPU or host its baseline's runs never measured: its level is placed by its own gated runs in
// the history at the baseline's kernel source and its driver, and until then a change within how
// far devices of the model differ is named (neither passed nor failed), a 2x slowdown failed.
// Seeded synthetic samples and histories.
#include <gtest/gtest.h>

#include <random>

#include "judge/device_calibration.h"
#include "judge/device_level.h"
#include "judge/gpu_judge_fixture.h"
#include "judge/history_noise.h"
#include "judge/judge_case.h"
#include "perfgate/metric_names.h"

namespace perfgate {
namespace {

constexpr const char* kDramCopy = "copy/vulkan/n=33554432";
constexpr double kLatency = 68700;       // ns, the proposing GPU's level
constexpr double kOtherGpu = 0.9969;     // the second H200 sat 0.31% faster on identical code
constexpr const char* kSource = "sha256:copy";

BaselineCase proposed_on_first_gpu(std::mt19937_64& rng) {
  BaselineCase b;
  b.id = kDramCopy;
  b.backend = "vulkan";
  b.source_hash = kSource;
  b.measured_at = "2026-12-01T00:00:00Z";
  b.fingerprint = gpu_testing::h200("gpu-a");
  b.fingerprint.driver_version = "580.159.04";
  for (int run = 0; run < 5; ++run) b.runs[metric::latency_ns].push_back(gpu_testing::around(rng, kLatency, 0.0002));
  return b;
}

// `runs` gated runs of the second GPU, each a day's minute after the baseline.
std::vector<HistoryPoint> second_gpu_runs(std::mt19937_64& rng, int runs, const std::string& source = kSource,
                                          const std::string& driver = "580.159.04", double slower = 1,
                                          const std::string& day = "2026-12-02") {
  std::normal_distribution<double> noise(0, 0.0002);
  std::vector<HistoryPoint> points;
  for (int i = 0; i < runs; ++i) {
    HistoryPoint p;
    p.machine_id = "nvidia-h200";
    p.case_id = kDramCopy;
    p.device_uuid = "gpu-b";
    p.host_id = "a1";
    p.run_id = source + driver + day + std::to_string(i);
    p.started_at = day + "T00:" + (i < 10 ? "0" : "") + std::to_string(i) + ":00Z";
    p.source_hash = source;
    p.driver = driver;
    p.medians[metric::latency_ns] = kLatency * kOtherGpu * slower * (1 + noise(rng));
    points.push_back(p);
  }
  return points;
}

ThresholdSet level_thresholds() {
  return ThresholdSet::from_yaml_text(
      "defaults:\n  history: {min_magnitude_pct: 0, drift_max_pct: 0}\n  metrics:\n"
      "    latency_ns: {direction: lower, min_allowed_pct: 0}\n",
      "t.yaml");
}

Fingerprint second_gpu(const std::string& driver = "580.159.04") {
  Fingerprint f = gpu_testing::h200("gpu-b");
  f.driver_version = driver;
  return f;
}

// A check on the second GPU of code doing `work` x the baseline's, judged with `points`.
CaseResult check_on_second_gpu(std::mt19937_64& rng, double work, const std::vector<HistoryPoint>* points,
                               const Fingerprint& here = second_gpu()) {
  const BaselineCase b = proposed_on_first_gpu(rng);
  CaseResult r = gpu_testing::measured_on_gpu(rng, kDramCopy, kLatency * kOtherGpu * work, false, 0.0002);
  r.backend = "vulkan";
  r.source_hash = kSource;
  std::optional<HistoryNoise> history;
  if (points) {
    auto noise = history_noise(*points, level_thresholds(), here.device_uuid, here.host_id);
    if (auto it = noise.find(kDramCopy); it != noise.end()) history = it->second;
  }
  judge_against(r, b, gpu_testing::runs_only(), here, history ? &*history : nullptr);
  return r;
}

TEST(DeviceLevel, AnUnplacedGpuNeverPassesWhatItsOffsetCouldHide) {
  std::mt19937_64 rng(71);
  for (double work : {1.0, 1.004}) {  // identical code, and +0.4% time
    const CaseResult r = check_on_second_gpu(rng, work, nullptr);
    EXPECT_EQ(r.verdict, Verdict::inconclusive) << r.message;
    const Judgement& j = r.judgements.at(0);
    EXPECT_TRUE(j.named);
    EXPECT_EQ(j.threshold_source, "another device");
    EXPECT_EQ(j.level_source, "default bound");
    EXPECT_DOUBLE_EQ(j.level_bound_pct, kDevicesOfModelBoundPct);
    EXPECT_NE(j.reason.find("5 runs of this GPU at the baseline's kernel source place it"), std::string::npos)
        << j.reason;
  }
  // 2x the work: past anything GPUs of one model were seen to differ by, so judged and failed.
  const CaseResult doubled = check_on_second_gpu(rng, 2.0, nullptr);
  EXPECT_EQ(doubled.verdict, Verdict::regressed) << doubled.message;
  EXPECT_FALSE(doubled.judgements.at(0).named);
}

TEST(DeviceLevel, ItsOwnRunsPlaceItsLevel) {
  std::mt19937_64 rng(72);
  const std::vector<HistoryPoint> points = second_gpu_runs(rng, kOffsetRuns);
  const CaseResult same = check_on_second_gpu(rng, 1.0, &points);
  EXPECT_EQ(same.verdict, Verdict::pass) << same.message;
  const Judgement& j = same.judgements.at(0);
  EXPECT_EQ(j.level_source, "history runs");
  EXPECT_NEAR(j.level_offset_pct, 100 * (kOtherGpu - 1), 0.03);
  EXPECT_LT(j.level_bound_pct, 0.05) << "five runs know the offset to a fraction of its noise";
  EXPECT_NEAR(j.change_pct, 0, 0.05) << "judged against the level moved by the offset";
  const CaseResult slower = check_on_second_gpu(rng, 1.004, &points);
  EXPECT_EQ(slower.verdict, Verdict::regressed) << slower.message;
  EXPECT_NE(slower.message.find("this GPU's 5 runs in the history"), std::string::npos) << slower.message;
}

TEST(DeviceLevel, FewerRunsSayHowManyMoreTightenIt) {
  std::mt19937_64 rng(73);
  const std::vector<HistoryPoint> points = second_gpu_runs(rng, kOffsetRuns - 2);
  const CaseResult r = check_on_second_gpu(rng, 1.004, &points);
  EXPECT_EQ(r.verdict, Verdict::inconclusive) << r.message;
  EXPECT_NE(r.message.find("2 more runs of this GPU at the baseline's kernel source and this driver"),
            std::string::npos)
      << r.message;
}

TEST(DeviceLevel, ARegressionInsideTheLearningWindowIsNotAbsorbed) {
  std::mt19937_64 rng(74);
  // Three runs at the baseline's source, then five of a kernel source 1% slower.
  std::vector<HistoryPoint> points = second_gpu_runs(rng, 3);
  for (const HistoryPoint& p : second_gpu_runs(rng, 5, "sha256:slower", "580.159.04", 1.01, "2026-12-03"))
    points.push_back(p);
  const CaseResult unplaced = check_on_second_gpu(rng, 1.01, &points);
  EXPECT_EQ(unplaced.judgements.at(0).level_source, "default bound") << unplaced.message;
  EXPECT_NE(unplaced.verdict, Verdict::pass) << unplaced.message;
  // Two more runs at the baseline's source place it, from them alone: the slower code still fails.
  for (const HistoryPoint& p : second_gpu_runs(rng, 2, kSource, "580.159.04", 1, "2026-12-04")) points.push_back(p);
  const CaseResult placed = check_on_second_gpu(rng, 1.01, &points);
  EXPECT_EQ(placed.judgements.at(0).level_source, "history runs");
  EXPECT_NEAR(placed.judgements.at(0).level_offset_pct, 100 * (kOtherGpu - 1), 0.03);
  EXPECT_EQ(placed.verdict, Verdict::regressed) << placed.message;
}

TEST(DeviceLevel, ADriverChangeOnTheDeviceStartsItsOffsetAgain) {
  std::mt19937_64 rng(75);
  const std::vector<HistoryPoint> points = second_gpu_runs(rng, kOffsetRuns);
  const CaseResult r = check_on_second_gpu(rng, 1.0, &points, second_gpu("590.10"));
  EXPECT_EQ(r.judgements.at(0).level_source, "default bound") << r.message;
  EXPECT_EQ(r.verdict, Verdict::inconclusive);
}

TEST(DeviceLevel, RunsBeforeTheBaselineDoNotPlaceIt) {
  std::mt19937_64 rng(76);
  const std::vector<HistoryPoint> points =
      second_gpu_runs(rng, kOffsetRuns, kSource, "580.159.04", 1, "2026-11-30");  // before its measured_at
  EXPECT_EQ(check_on_second_gpu(rng, 1.0, &points).judgements.at(0).level_source, "default bound");
}

TEST(DeviceLevel, TheOffsetsUncertaintyComesFromBothSetsOfRuns) {
  std::mt19937_64 rng(77);
  const BaselineCase b = proposed_on_first_gpu(rng);
  const std::vector<HistoryPoint> points = second_gpu_runs(rng, 8);
  std::vector<const HistoryPoint*> runs;
  for (const HistoryPoint& p : points) runs.push_back(&p);
  const auto offset = device_offset(runs, b, metric::latency_ns, "this GPU");
  ASSERT_TRUE(offset);
  EXPECT_EQ(offset->runs, 8);
  EXPECT_NEAR(offset->ratio, kOtherGpu, 0.0003);
  EXPECT_GT(offset->bound_pct, 0);
  runs.resize(kOffsetRuns - 1);
  EXPECT_FALSE(device_offset(runs, b, metric::latency_ns, "this GPU"));
  EXPECT_TRUE(offset_runs(points, b, "other driver").empty());
}

TEST(DeviceLevel, BaselineShowCountsThePlacedDevices) {
  std::mt19937_64 rng(78);
  const BaselineCase b = proposed_on_first_gpu(rng);
  std::vector<HistoryPoint> runs = second_gpu_runs(rng, kOffsetRuns);  // gpu-b: placed
  for (HistoryPoint p : second_gpu_runs(rng, 2)) {                     // gpu-c: two runs, not yet
    p.device_uuid = "gpu-c";
    runs.push_back(p);
  }
  for (HistoryPoint p : second_gpu_runs(rng, 3)) {  // the baseline's own GPU: not counted
    p.device_uuid = "gpu-a";
    runs.push_back(p);
  }
  const CaseCalibration calibration = case_calibration(runs, b, metric::latency_ns);
  EXPECT_EQ(calibration.devices_are, "GPUs");
  ASSERT_EQ(calibration.devices.size(), 3u);  // the baseline's own, then gpu-b and gpu-c
  EXPECT_TRUE(calibration.devices[0].baseline_measured);
  EXPECT_EQ(calibration.calibrated(), 2);
  EXPECT_FALSE(calibration.devices[2].calibrated());
}

}  // namespace
}  // namespace perfgate
