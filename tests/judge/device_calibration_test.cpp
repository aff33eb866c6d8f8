// Which devices of a machine id a baseline calibrates: where the host keeps the time (llvmpipe),
// hosts, whatever uuid the driver reports; a merged baseline's GPUs by their own runs; a device
// whose newest driver is new starts again. Seeded synthetic runs.
#include "judge/device_calibration.h"

#include <gtest/gtest.h>

#include <random>

#include "perfgate/metric_names.h"

namespace perfgate {
namespace {

BaselineCase llvmpipe_baseline(std::mt19937_64& rng) {
  BaselineCase b;
  b.id = "copy/vulkan/n=4096";
  b.backend = "vulkan";
  b.calibration_reference = "reference/cpu";  // a time the host's cores keep
  b.source_hash = "sha256:copy";
  b.measured_at = "2026-12-01T00:00:00Z";
  b.fingerprint.device_uuid = "llvmpipe-uuid";
  b.fingerprint.host_id = "host-a";
  std::normal_distribution<double> noise(0, 0.01);
  for (int run = 0; run < 5; ++run)
    b.runs[metric::relative_latency].push_back({1 + noise(rng), 1 + noise(rng)});
  return b;
}

std::vector<HistoryPoint> host_runs(std::mt19937_64& rng, const std::string& host, int runs,
                                    const std::string& driver = "llvmpipe 24.2") {
  std::normal_distribution<double> noise(0, 0.01);
  std::vector<HistoryPoint> points;
  for (int i = 0; i < runs; ++i) {
    HistoryPoint p;
    p.device_uuid = "llvmpipe-uuid";  // the same on every host
    p.host_id = host;
    p.driver = driver;
    p.source_hash = "sha256:copy";
    p.started_at = "2026-12-02T00:0" + std::to_string(i) + ":00Z";
    p.medians[metric::relative_latency] = 1.1 * (1 + noise(rng));
    points.push_back(p);
  }
  return points;
}

TEST(DeviceCalibration, WhereTheHostKeepsTheTimeHostsAreCalibrated) {
  std::mt19937_64 rng(651);
  const BaselineCase b = llvmpipe_baseline(rng);
  std::vector<HistoryPoint> runs = host_runs(rng, "host-b", 5);
  for (const HistoryPoint& p : host_runs(rng, "host-c", 4)) runs.push_back(p);
  const CaseCalibration c = case_calibration(runs, b, metric::relative_latency);
  EXPECT_EQ(c.devices_are, "hosts");
  ASSERT_EQ(c.devices.size(), 3u);
  EXPECT_EQ(c.devices[0].device, "host-a");
  EXPECT_TRUE(c.devices[0].baseline_measured);
  // Its own host, one period of it: calibrated, and what measures its periods.
  EXPECT_NE(c.devices[0].why.find("in one period: 5 more of its gated runs"), std::string::npos)
      << c.devices[0].why;
  EXPECT_EQ(c.devices[1].device, "host-b");
  ASSERT_TRUE(c.devices[1].offset);
  EXPECT_NEAR(c.devices[1].offset->ratio, 1.1, 0.03);
  EXPECT_FALSE(c.devices[2].calibrated());
  EXPECT_EQ(c.devices[2].why,
            "1 more run of this host at the baseline's kernel source and driver llvmpipe 24.2 places it");
  EXPECT_EQ(c.calibrated(), 2);
}

TEST(DeviceCalibration, ANewDriverStartsAgainAndAMergedBaselinesGpusAreItsOwn) {
  std::mt19937_64 rng(652);
  BaselineCase b = llvmpipe_baseline(rng);
  b.calibration_reference.clear();  // a GPU's own clock: GPUs by uuid
  b.fingerprint.device_uuid = "gpu-a";
  b.run_devices = {"gpu-a", "gpu-a", "gpu-e", "gpu-e", "gpu-e"};
  std::vector<HistoryPoint> runs = host_runs(rng, "h", 5, "580.95");
  for (HistoryPoint& p : runs) p.device_uuid = "gpu-b";
  runs.back().driver = "590.10";  // its newest run is under a new driver: 1 counts
  const CaseCalibration c = case_calibration(runs, b, metric::relative_latency);
  EXPECT_EQ(c.devices_are, "GPUs");
  ASSERT_EQ(c.devices.size(), 3u);
  EXPECT_EQ(c.devices[1].device, "gpu-e");
  EXPECT_TRUE(c.devices[1].baseline_measured);
  EXPECT_EQ(c.devices[2].offset_runs, 1);
  EXPECT_FALSE(c.devices[2].calibrated());
  EXPECT_NE(
      c.devices[2].why.find("4 more runs of this GPU at the baseline's kernel source and driver 590.10"),
      std::string::npos)
      << c.devices[2].why;
  EXPECT_NE(c.devices[2].why.find("4 under another driver"), std::string::npos) << c.devices[2].why;
}

}  // namespace
}  // namespace perfgate
