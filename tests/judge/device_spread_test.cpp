// GPUs of one model differ from each other by more than one GPU's runs: a baseline whose runs span
// three or more of them (merged across leases) judges a check on a GPU none of them is, with an
// allowance for that spread, tightening as GPUs are added; with fewer, such a check is named,
// never failed. A GPU among them keeps its own runs. Seeded synthetic samples.
#include "judge/device_spread.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "judge/candidate_merge.h"
#include "judge/gpu_judge_fixture.h"
#include "judge/judge_case.h"
#include "perfgate/error.h"
#include "perfgate/metric_names.h"
#include "store/store_fixture.h"

namespace perfgate {
namespace {

constexpr const char* kSpreadCase = "copy/vulkan/n=33554432,wg=256";

// Five runs on each of `levels.size()` GPUs (uuids gpu-0, gpu-1, ...), GPU i at levels[i] ns, each
// run at 0.01% noise: what proposals on GPUs of several leases, merged, hold.
BaselineCase gpus_baseline(std::mt19937_64& rng, const std::vector<double>& levels) {
  BaselineCase b;
  b.id = kSpreadCase;
  b.kernel = "copy";
  b.backend = "vulkan";
  b.fingerprint.machine_id = "nvidia-h200";
  b.fingerprint.device_uuid = "gpu-0";
  b.fingerprint.host_id = "host-0";
  for (std::size_t g = 0; g < levels.size(); ++g)
    for (int run = 0; run < 5; ++run) {
      b.runs[metric::latency_ns].push_back(gpu_testing::around(rng, levels[g], 0.0001));
      b.run_devices.push_back("gpu-" + std::to_string(g));
    }
  return b;
}

Fingerprint h200_on(const std::string& uuid) { return gpu_testing::h200(uuid, "host-" + uuid); }

CaseResult copy_on(std::mt19937_64& rng, double latency) {
  return gpu_testing::measured_on_gpu(rng, kSpreadCase, latency, false, 0.0001);
}

TEST(DeviceSpread, WithinPoolsEachGpusRunsAboutItsOwnLevel) {
  // Two GPUs 50% apart, each run median 1% (sd) about its own level: the pooled spread is what
  // each GPU's runs show, not the distance between them, and it tightens with runs.
  std::mt19937_64 rng(41);
  std::normal_distribution<double> jitter(0, 0.01);
  auto gpu = [&](double level, int runs) {
    std::vector<double> medians;
    for (int i = 0; i < runs; ++i) medians.push_back(level * (1 + jitter(rng)));
    return medians;
  };
  const auto many = spread_within({{"gpu-0", gpu(100, 200)}, {"gpu-1", gpu(150, 200)}});
  ASSERT_TRUE(many);
  EXPECT_EQ(many->devices, 2);
  EXPECT_EQ(many->runs, 400);
  EXPECT_NEAR(many->sigma_pct, 1.0, 0.1);
  EXPECT_LT(many->bound_pct, 1.1);
  const auto five_each = spread_within({{"gpu-0", gpu(100, 5)}, {"gpu-1", gpu(150, 5)}});
  ASSERT_TRUE(five_each);
  EXPECT_GT(five_each->bound_pct / five_each->sigma_pct, 1.4) << "8 degrees of freedom bound it loosely";
  EXPECT_NE(five_each->why.find("2 GPUs"), std::string::npos) << five_each->why;
  // One GPU, or a second with a single run, pools nothing.
  EXPECT_FALSE(spread_within({{"gpu-0", gpu(100, 5)}}));
  EXPECT_FALSE(spread_within({{"gpu-0", gpu(100, 5)}, {"gpu-1", gpu(150, 1)}}));
}

TEST(DeviceSpread, MeasuredFromThreeGpusOrMore) {
  std::mt19937_64 rng(31);
  EXPECT_FALSE(device_spread(gpus_baseline(rng, {10000, 10030}), metric::latency_ns));
  const auto three = device_spread(gpus_baseline(rng, {10000, 10030, 9970}), metric::latency_ns);
  ASSERT_TRUE(three);
  EXPECT_EQ(three->devices, 3);
  EXPECT_NEAR(three->sigma_pct, 0.3, 0.02);  // levels 0.3% apart
  EXPECT_GT(three->bound_pct, 2.5 * three->sigma_pct);  // three GPUs bound it loosely
  EXPECT_NE(three->why.find("the 3 devices of its runs spread"), std::string::npos) << three->why;
  // The same spread from more GPUs: a tighter bound.
  const auto eight = device_spread(
      gpus_baseline(rng, {10000, 10030, 9970, 10000, 10030, 9970, 10000, 10030}), metric::latency_ns);
  ASSERT_TRUE(eight);
  EXPECT_LT(eight->bound_pct, three->bound_pct);
}

TEST(DeviceSpread, AnotherGpuIsJudgedWithTheSpreadBetweenGpus) {
  std::mt19937_64 rng(32);
  const BaselineCase b = gpus_baseline(rng, {10000, 10030, 9970});
  const Fingerprint fourth = h200_on("gpu-new");
  // A fourth GPU 0.4% slower than the middle one: within what three GPUs showed, so it may be
  // this GPU's own level: named, neither passed nor failed.
  CaseResult apart = copy_on(rng, 10040);
  judge_against(apart, runs_of_device(b, "gpu-new"), gpu_testing::runs_only(), fourth);
  EXPECT_EQ(apart.verdict, Verdict::inconclusive) << apart.message;
  ASSERT_EQ(apart.judgements.size(), 1u);
  EXPECT_TRUE(apart.judgements[0].named);
  EXPECT_EQ(apart.judgements[0].threshold_source, "another device") << apart.judgements[0].reason;
  EXPECT_EQ(apart.judgements[0].level_source, "device spread");
  EXPECT_GT(apart.judgements[0].level_bound_pct, 0.3);
  EXPECT_EQ(apart.baseline_origin, "another device (gpu-0...)");
  // The same GPU 10% slower: past it, and judged (not only named), a regression.
  CaseResult slower = copy_on(rng, 11000);
  judge_against(slower, runs_of_device(b, "gpu-new"), gpu_testing::runs_only(), fourth);
  EXPECT_EQ(slower.verdict, Verdict::regressed) << slower.message;
  EXPECT_NE(slower.message.find("devices of its runs"), std::string::npos) << slower.message;
  // A GPU among them keeps its own runs' resolution: 0.3% off its own level regresses there.
  CaseResult own = copy_on(rng, 10030);
  judge_against(own, runs_of_device(b, "gpu-0"), gpu_testing::runs_only(), h200_on("gpu-0"));
  EXPECT_EQ(own.verdict, Verdict::regressed) << own.message;
  EXPECT_EQ(own.judgements[0].threshold_source, "noise");
}

TEST(DeviceSpread, TwoGpusOnlyNameAnotherOne) {
  std::mt19937_64 rng(33);
  const BaselineCase b = gpus_baseline(rng, {10000, 10030});
  CaseResult slower = copy_on(rng, 11000);
  judge_against(slower, runs_of_device(b, "gpu-new"), gpu_testing::runs_only(), h200_on("gpu-new"));
  EXPECT_EQ(slower.verdict, Verdict::inconclusive) << slower.message;
  EXPECT_EQ(slower.judgements[0].threshold_source, "another device");
}

TEST(DeviceSpread, ProposalsOnGpusOfSeveralHostsMerge) {
  Candidate first = testing::candidate_of({"copy/vulkan/n=1024"}, 900);
  first.fingerprint.device_uuid = "gpu-a";
  first.fingerprint.host_id = "host-a";
  Candidate second = first;
  second.fingerprint.device_uuid = "gpu-b";
  second.fingerprint.host_id = "host-b";
  second.run_ids = {"r3", "r4"};
  const Candidate merged = merge_candidates({{"a.yaml", first}, {"b.yaml", second}});
  EXPECT_EQ(merged.run_devices, (std::vector<std::string>{"gpu-a", "gpu-a", "gpu-b", "gpu-b"}));
  // Another driver is another machine still.
  second.fingerprint.driver_version = "999.0";
  try {
    merge_candidates({{"a.yaml", first}, {"b.yaml", second}});
    FAIL() << "candidates of two drivers merged";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("driver_version"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace perfgate
