// The floor a case gets follows its working set: a DRAM-sized case (fits_in_cache false) is held
// to dram_min_allowed_pct where the thresholds give one, a cache-resident case keeps
// min_allowed_pct, and a fixed max_regression_pct is never narrowed.
// Seeded synthetic samples.
#include <gtest/gtest.h>

#include <random>

#include "judge/gpu_judge_fixture.h"
#include "judge/judge_case.h"
#include "judge/thresholds.h"
#include "judge/verdict.h"
#include "perfgate/metric_names.h"

namespace perfgate {
namespace {

std::vector<double> dram_around(std::mt19937_64& rng, double median, double jitter = 0.0005) {
  return gpu_testing::around(rng, median, jitter);
}

Thresholds dram_thresholds() {
  Thresholds t;
  t.metrics[metric::latency_ns].min_allowed_pct = 2;
  t.metrics[metric::latency_ns].dram_min_allowed_pct = 0.5;
  t.metrics[metric::latency_ns].min_change = 50;
  return t;
}

const char* kUuid = "2614b9718d0afb6f";

BaselineCase dram_baseline(std::mt19937_64& rng, double latency = 90000) {
  BaselineCase b;
  b.periods = 2;  // a merge of two proposals: its moves between periods measured
  b.id = "copy/vulkan/n=33554432,wg=256";
  b.fingerprint.machine_id = "nvidia-h100-80gb-hbm3";
  b.fingerprint.device_uuid = kUuid;
  for (int r = 0; r < 5; ++r)
    b.runs[metric::latency_ns].push_back(dram_around(rng, latency * (1 + 0.0001 * (r - 2))));
  return b;
}

Fingerprint dram_device(const std::string& uuid = kUuid) { return gpu_testing::h100(uuid); }

CaseResult measured(std::mt19937_64& rng, double latency, bool in_cache) {
  return gpu_testing::measured_on_gpu(rng, "copy/vulkan/n=33554432,wg=256", latency, in_cache, 0.0005);
}

TEST(DramFloor, ADramSizedCaseIsHeldToItsOwnFloor) {
  std::mt19937_64 rng(3);
  CaseResult r = measured(rng, 90900, false);  // +1%
  judge_against(r, dram_baseline(rng), dram_thresholds(), dram_device());
  EXPECT_EQ(r.verdict, Verdict::regressed) << r.message;
  ASSERT_EQ(r.judgements.size(), 1u);
  EXPECT_DOUBLE_EQ(r.judgements[0].threshold_pct, 0.5);
  EXPECT_EQ(r.judgements[0].threshold_source, "floor");
  EXPECT_NE(r.message.find("dram_min_allowed_pct"), std::string::npos) << r.message;
}

// `baseline propose` and `baseline show` state a stored case's resolution before any check: the
// floor there is the one a check of that case will apply.
TEST(DramFloor, TheResolutionShownBeforeACheckUsesTheSameFloor) {
  std::mt19937_64 rng(5);
  const BaselineCase b = dram_baseline(rng);
  const auto dram = latency_noise(b.runs, dram_thresholds(), {.fits_in_cache = false});
  const auto cache = latency_noise(b.runs, dram_thresholds(), {.fits_in_cache = true});
  ASSERT_TRUE(dram && cache);
  EXPECT_DOUBLE_EQ(dram->allowance.pct, 0.5);
  EXPECT_DOUBLE_EQ(cache->allowance.pct, 2);
  EXPECT_EQ(dram->allowance.source, "floor");
}

TEST(DramFloor, TheSameChangeInCachePassesUnderTheCacheFloor) {
  std::mt19937_64 rng(3);
  CaseResult r = measured(rng, 90900, true);  // +1%, but the working set fits in the cache
  judge_against(r, dram_baseline(rng), dram_thresholds(), dram_device());
  EXPECT_EQ(r.verdict, Verdict::pass) << r.message;
  EXPECT_DOUBLE_EQ(r.judgements.at(0).threshold_pct, 2);
  EXPECT_EQ(r.message.find("dram_min_allowed_pct"), std::string::npos) << r.message;
}

TEST(DramFloor, AnAaRepeatAndAChangeBelowTheFloorPass) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    const BaselineCase b = dram_baseline(rng);
    for (double change : {0.0, 0.003}) {  // A/A, and +0.3%: below the 0.5% floor
      CaseResult r = measured(rng, 90000 * (1 + change), false);
      judge_against(r, b, dram_thresholds(), dram_device());
      EXPECT_EQ(r.verdict, Verdict::pass) << "seed " << seed << " change " << change << ": " << r.message;
    }
  }
}

TEST(DramFloor, ANoisyDramCaseKeepsItsNoiseAllowance) {
  std::mt19937_64 rng(5);
  BaselineCase b;
  b.periods = 2;  // a merge of two proposals: its moves between periods measured
  b.id = "copy/vulkan/n=33554432,wg=256";
  b.fingerprint = dram_device();
  const double run_medians[] = {1.0, 1.004, 0.996, 1.002, 0.998};  // sigma 0.32%: 4 x = 1.26%
  for (double m : run_medians) b.runs[metric::latency_ns].push_back(dram_around(rng, 90000 * m, 0.0002));
  CaseResult r = measured(rng, 90900, false);  // +1%: within 4 x its noise
  judge_against(r, b, dram_thresholds(), dram_device());
  EXPECT_EQ(r.verdict, Verdict::pass) << r.message;
  EXPECT_EQ(r.judgements.at(0).threshold_source, "noise");
  EXPECT_GT(r.judgements.at(0).threshold_pct, 1.0);
}

TEST(DramFloor, AFixedAllowanceIsNeverNarrowed) {
  MetricThreshold t;
  t.max_regression_pct = 60;
  t.dram_min_allowed_pct = 0.5;
  const MetricThreshold dram = t.for_case({.fits_in_cache = false});
  EXPECT_FALSE(dram.min_allowed_pct.has_value());
  EXPECT_EQ(dram.max_regression_pct, 60);
  MetricThreshold floor_only;
  floor_only.min_allowed_pct = 2;
  EXPECT_EQ(floor_only.for_case({.fits_in_cache = false}).min_allowed_pct, 2);  // no DRAM floor given
  floor_only.dram_min_allowed_pct = 0.5;
  EXPECT_EQ(floor_only.for_case({.fits_in_cache = true}).min_allowed_pct, 2);
  EXPECT_EQ(floor_only.for_case({.fits_in_cache = false}).min_allowed_pct, 0.5);
}

TEST(DramFloor, TheThresholdsFileSetsItPerMachineGlob) {
  const ThresholdSet set = ThresholdSet::from_yaml_text(
      "defaults:\n"
      "  metrics:\n"
      "    latency_ns: {min_allowed_pct: 2}\n"
      "overrides:\n"
      "  - match: {machine: \"nvidia-h100*\"}\n"
      "    metrics:\n"
      "      latency_ns: {dram_min_allowed_pct: 0.5}\n",
      "t.yaml");
  const Thresholds h100 = set.resolve("copy/vulkan/n=33554432,wg=256", "nvidia-h100-80gb-hbm3");
  EXPECT_EQ(h100.metrics.at(metric::latency_ns).dram_min_allowed_pct, 0.5);
  EXPECT_EQ(h100.metrics.at(metric::latency_ns).min_allowed_pct, 2);
  const Thresholds other = set.resolve("copy/vulkan/n=33554432,wg=256", "amd-radeon-rx-7900");
  EXPECT_FALSE(other.metrics.at(metric::latency_ns).dram_min_allowed_pct.has_value());
}

// Before a case is measured its working set is not known: a check samples to the DRAM floor,
// the smaller of the two.
TEST(DramFloor, TheLeastAllowanceTakesTheDramFloor) {
  std::mt19937_64 rng(11);
  EXPECT_DOUBLE_EQ(least_allowance_pct(dram_baseline(rng), dram_thresholds()), 0.5);
}

}  // namespace
}  // namespace perfgate
