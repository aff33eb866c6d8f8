// The A/B allowance: finer than the prior where this device's baseline runs measured how far two
// processes of a case differ, tightening as runs accumulate; the prior where nothing here measured
// it (no baseline, another device or host) or where the runs spread wider. Seeded synthetic runs.
#include "judge/ab_allowance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "perfgate/metric_names.h"

namespace perfgate {
namespace {

// A baseline of `runs` processes on `device`, each 200 samples around 68.7 us moved by a seeded
// Gaussian run-to-run spread of `sigma_pct` (and a sample jitter of 0.05%).
BaselineCase ab_baseline(int runs, double sigma_pct, unsigned seed, const std::string& device = "gpu-0") {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> between(0, sigma_pct / 100), within(0, 0.0005);
  BaselineCase b;
  b.id = "copy/vulkan/n=33554432,wg=256";
  b.fingerprint.machine_id = "nvidia-h200";
  b.fingerprint.device_uuid = device;
  b.fingerprint.host_id = "host-a";
  auto& latency = b.runs[metric::latency_ns];
  for (int r = 0; r < runs; ++r) {
    const double level = 68700 * (1 + between(random));
    std::vector<double> samples;
    for (int i = 0; i < 200; ++i) samples.push_back(level * (1 + within(random)));
    latency.push_back(samples);
  }
  return b;
}

Fingerprint here(const std::string& device = "gpu-0") {
  Fingerprint f;
  f.machine_id = "nvidia-h200";
  f.device_uuid = device;
  f.host_id = "host-a";
  return f;
}

Thresholds ab_thresholds() {
  Thresholds t;
  t.ab_max_regression_pct = 5;
  t.noise_factor = 4;
  t.metrics[metric::latency_ns].min_change = 1;  // 1 ns: finer than any spread here
  return t;
}

TEST(AbAllowance, ThePriorWhereNothingHereMeasuredTheCase) {
  const AbAllowance none = ab_allowance(ab_thresholds(), nullptr, here());
  EXPECT_EQ(none.pct, 5);
  EXPECT_EQ(none.source, "fixed");
  EXPECT_NE(none.why.find("no baseline of the case on nvidia-h200"), std::string::npos) << none.why;

  const BaselineCase elsewhere = ab_baseline(5, 0.02, 1, "gpu-other");
  const AbAllowance other = ab_allowance(ab_thresholds(), &elsewhere, here());
  EXPECT_EQ(other.pct, 5);
  EXPECT_NE(other.why.find("another device or host"), std::string::npos) << other.why;
}

TEST(AbAllowance, FromThisDevicesRunsTighteningAsTheyAccumulate) {
  const Thresholds t = ab_thresholds();
  double previous = 100;
  for (int runs : {3, 5, 10, 20}) {
    double sum = 0;
    for (unsigned seed = 1; seed <= 20; ++seed) {
      const BaselineCase b = ab_baseline(runs, 0.02, seed);
      const AbAllowance a = ab_allowance(t, &b, here());
      ASSERT_EQ(a.source, "noise") << a.why;
      EXPECT_NE(a.why.find("sqrt(2)"), std::string::npos) << a.why;
      // Never finer than sqrt(2) x the noise factor x the true sigma at the 90% bound's usual
      // reach: a bound below the truth would call two processes' own difference a change.
      EXPECT_GT(a.pct, 0.5 * 4 * std::sqrt(2.0) * 0.02) << runs << " runs, seed " << seed;
      EXPECT_LT(a.pct, 1.0) << runs << " runs, seed " << seed;
      sum += a.pct;
    }
    const double mean = sum / 20;
    EXPECT_LT(mean, previous) << runs << " runs";  // more runs, a tighter bound
    previous = mean;
  }
}

TEST(AbAllowance, OnlyThisGpusRunsOfABaselineOfSeveral) {
  // Runs alternating between two GPUs of a host: the other one 1% slower.
  BaselineCase b = ab_baseline(10, 0.02, 3);
  auto& latency = b.runs[metric::latency_ns];
  for (std::size_t i = 0; i < latency.size(); ++i) {
    const bool mine = i % 2 == 0;
    b.run_devices.push_back(mine ? "gpu-0" : "gpu-1");
    if (!mine)
      for (double& x : latency[i]) x *= 1.01;
  }
  const AbAllowance a = ab_allowance(ab_thresholds(), &b, here("gpu-0"));
  EXPECT_EQ(a.source, "noise") << a.why;
  EXPECT_LT(a.pct, 0.5) << a.why;  // the other GPU's 1% is not this one's spread
}

TEST(AbAllowance, ThePriorCapsRunsThatSpreadWider) {
  const BaselineCase noisy = ab_baseline(5, 3, 4);  // a busy VM's runs: 3% apart
  const AbAllowance a = ab_allowance(ab_thresholds(), &noisy, here());
  EXPECT_EQ(a.pct, 5);
  EXPECT_EQ(a.source, "fixed");
  EXPECT_NE(a.why.find("spread wider"), std::string::npos) << a.why;
}

TEST(AbAllowance, NeverFinerThanTheTimerResolves) {
  Thresholds t = ab_thresholds();
  t.metrics[metric::latency_ns].min_change = 687;  // 1% of 68.7 us
  const BaselineCase b = ab_baseline(5, 0.02, 5);
  const AbAllowance a = ab_allowance(t, &b, here());
  EXPECT_NEAR(a.pct, 1.0, 0.01) << a.why;
  EXPECT_NE(a.why.find("min_change"), std::string::npos) << a.why;
}

TEST(AbAllowance, OnACpuTheHostIsTheMachine) {
  BaselineCase b = ab_baseline(5, 0.2, 6, "");
  Fingerprint cpu = here("");
  EXPECT_EQ(ab_allowance(ab_thresholds(), &b, cpu).source, "noise");
  cpu.host_id = "host-b";
  EXPECT_EQ(ab_allowance(ab_thresholds(), &b, cpu).source, "fixed");
  b.fingerprint.host_id.clear();  // approved before hosts were recorded: no host's
  cpu.host_id = "host-a";
  EXPECT_EQ(ab_allowance(ab_thresholds(), &b, cpu).source, "fixed");
}

}  // namespace
}  // namespace perfgate
